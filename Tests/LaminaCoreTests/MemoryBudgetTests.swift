import Foundation
import LaminaCore
import Testing

/// The memory budget's accounting and wording, and the sizes `--memory-limit` takes (issue 13, part 4).
@Suite struct MemoryBudgetTests {
    @Test func sizesAreParsed() {
        #expect(MemorySize.parse("512M") == 512 << 20)
        #expect(MemorySize.parse("2G") == 2 << 30)
        #expect(MemorySize.parse("1.5GiB") == 3 << 29)
        #expect(MemorySize.parse("1.5 gb") == 3 << 29)
        #expect(MemorySize.parse("64k") == 65536)
        #expect(MemorySize.parse("1048576") == 1_048_576)
        #expect(MemorySize.parse("3T") == 3 << 40)
        for bad in ["", "G", "-1G", "2X", "1e3", "two", "1.2.3M", "99999999999T", "nan"] {
            #expect(MemorySize.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func sizesAreDescribed() {
        #expect(MemorySize.describe(2 << 30) == "2 GiB")
        #expect(MemorySize.describe(3 << 29) == "1.5 GiB")
        #expect(MemorySize.describe(768 << 20) == "768 MiB")
        #expect(MemorySize.describe(100) == "100 bytes")
        #expect(MemorySize.describe(1) == "1 byte")
        #expect(MemorySize.describe(4500) == "4.4 KiB")
    }

    @Test func reservationsAreCountedAndGivenBack() throws {
        let budget = MemoryBudget(limit: 1000)
        let a = try budget.reserve(600, for: "a")
        #expect(budget.inUse == 600)
        #expect(budget.canReserve(400) && !budget.canReserve(401))
        var b: MemoryReservation? = try budget.reserve(400, for: "b")
        #expect(budget.inUse == 1000)
        b = nil  // freed: given back
        #expect(b == nil && budget.inUse == 600)
        a.release()
        a.release()  // once only
        #expect(budget.inUse == 0)
        #expect(budget.peak == 1000)
    }

    @Test func overTheLimitIsANamedErrorAndReservesNothing() throws {
        let budget = MemoryBudget(limit: 2 << 30)
        let held = try budget.reserve(3 << 29, for: "image \"a.png\" (16384x12288)")
        let error = #expect(throws: MemoryLimitError.self) {
            try budget.reserve(1 << 30, for: "image \"big.png\" (16384x16384)")
        }
        #expect(error == MemoryLimitError(limit: 2 << 30, requested: 1 << 30, inUse: 3 << 29,
                                          what: "image \"big.png\" (16384x16384)"))
        #expect(error?.description == "memory limit 2 GiB exceeded: image \"big.png\" (16384x16384) needs 1 GiB, "
            + "1.5 GiB already in use (raise it with --memory-limit or MemoryBudget(limit:))")
        #expect(budget.inUse == 3 << 29)
        // Sizes that overflow Int are refused, not wrapped.
        #expect(throws: MemoryLimitError.self) { try budget.reserve(.max, for: "x") }
        held.release()
    }

    @Test func partsAreReservedAsOneOrNotAtAll() throws {
        let budget = MemoryBudget(limit: 1000)
        // The first part that does not fit is named; none of them stays reserved.
        #expect(throws: MemoryLimitError(limit: 1000, requested: 700, inUse: 400, what: "the picture")) {
            try budget.reserve([(bytes: 400, what: "the glyphs"), (bytes: 700, what: "the picture")])
        }
        #expect(budget.inUse == 0)
        var held: MemoryReservation? = try budget.reserve([(bytes: 400, what: "the glyphs"), (bytes: 500, what: "the picture")])
        #expect(held?.bytes == 900 && budget.inUse == 900)
        held = nil
        #expect(budget.inUse == 0)
    }

    @Test func reservingFromManyThreadsKeepsCount() throws {
        let budget = MemoryBudget(limit: 1 << 40)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<1000 { _ = try? budget.reserve(10, for: "x") }  // each freed at once
        }
        #expect(budget.inUse == 0)
    }
}
