import CX11
import Foundation
import LaminaCore

/// The X11 output's clock from the server (the Present extension, libXpresent): after each frame the output asks
/// for a PresentNotifyMSC at the next MSC (the next vertical blank: `divisor` 1), and waits for its
/// PresentCompleteNotify before the next frame; the completions' UST and MSC give the refresh rate and when each
/// frame was shown. Xvfb has Present with a fake clock of about 60 Hz.
///
/// A server without Present (or LAMINA_X11_PRESENT=0) leaves the output paced by the frame loop's 60 Hz timer; so
/// does a server whose completions stop coming (three notifies in a row unanswered within half a second each).
final class X11PresentPacing {
    private let display: OpaquePointer
    private let window: Window
    /// The extension's major opcode: a GenericEvent whose extension is this one is Present's.
    private let opcode: Int32
    private var eventID: XID = 0
    private var serial: UInt32 = 0
    /// The notify asked for and not completed yet, and when it was asked.
    private var pending: (serial: UInt32, askedAt: Double)?
    /// The completion the refresh rate is measured from: UST (seconds, CLOCK_MONOTONIC as the media clock) and MSC.
    private var reference: (ust: Double, msc: UInt64)?
    /// Notifies in a row that timed out; at `maxMissed` the output falls back to the timer.
    private var missed = 0
    private let log: @Sendable (String) -> Void
    /// The refresh rate the completions show: MSC counts over UST seconds, over at least a fifth of a second (a
    /// server's UST may jitter from one completion to the next; measured again from each ten seconds, to follow a
    /// mode change). Nil until then.
    private(set) var measuredRate: Double?
    /// False once the completions stopped coming: the timer paces from then on.
    private(set) var isWorking = true
    /// Completions received (for tests and logs).
    private(set) var completions = 0

    /// How long a notify may stay unanswered before it is given up (the frame loop then draws on its timer).
    static let timeout = 0.5
    static let maxMissed = 3

    /// Nil when LAMINA_X11_PRESENT=0 or the server has no Present extension (the reason logged).
    init?(display: OpaquePointer, window: Window, log: @escaping @Sendable (String) -> Void) {
        self.display = display
        self.window = window
        self.log = log
        if ProcessInfo.processInfo.environment["LAMINA_X11_PRESENT"] == "0" {
            log("x11: LAMINA_X11_PRESENT=0: frames are paced by a 60 Hz timer")
            return nil
        }
        var opcode: Int32 = 0, eventBase: Int32 = 0, errorBase: Int32 = 0
        guard XPresentQueryExtension(display, &opcode, &eventBase, &errorBase) != 0 else {
            log("x11: the server has no Present extension: frames are paced by a 60 Hz timer")
            return nil
        }
        var major: Int32 = 0, minor: Int32 = 0
        guard XPresentQueryVersion(display, &major, &minor) != 0 else {
            log("x11: the Present extension did not answer its version: frames are paced by a 60 Hz timer")
            return nil
        }
        self.opcode = opcode
        eventID = XPresentSelectInput(display, window, UInt32(PresentCompleteNotifyMask))
        log("x11: Present \(major).\(minor): frames are paced by PresentNotifyMSC")
    }

    /// Whether a notify is pending: the frame loop waits. One unanswered for `timeout` is given up (counted), and
    /// after `maxMissed` in a row Present is no longer used.
    var isWaiting: Bool {
        guard let pending else { return false }
        if currentMediaTime() - pending.askedAt < Self.timeout { return true }
        self.pending = nil
        missed += 1
        if missed >= Self.maxMissed {
            isWorking = false
            log("x11: \(missed) PresentNotifyMSC in a row unanswered within \(Self.timeout) s: frames are paced by "
                    + "a 60 Hz timer from now on")
        }
        return false
    }

    /// After a frame was put or swapped: asks for a notify at the next MSC.
    func frameWasPresented() {
        guard isWorking else { return }
        serial &+= 1
        XPresentNotifyMSC(display, window, serial, 0, 1, 0)
        XFlush(display)
        pending = (serial, currentMediaTime())
    }

    /// Handles a GenericEvent if it is Present's (its data fetched and freed here): the media time the notified
    /// MSC began at when it completes the pending notify, `.some(nil)` for another Present event, nil when the
    /// event is not Present's.
    func handle(_ event: inout XEvent) -> Double?? {
        guard event.xcookie.extension == opcode else { return nil }
        guard XGetEventData(display, &event.xcookie) != 0 else { return .some(nil) }
        defer { XFreeEventData(display, &event.xcookie) }
        guard event.xcookie.evtype == PresentCompleteNotify, let data = event.xcookie.data else { return .some(nil) }
        let complete = data.assumingMemoryBound(to: XPresentCompleteNotifyEvent.self).pointee
        guard complete.kind == UInt8(PresentCompleteKindNotifyMSC), complete.window == window else { return .some(nil) }
        let ust = Double(complete.ust) / 1e6
        if let reference, complete.msc > reference.msc, ust - reference.ust >= 0.2 {
            let rate = Double(complete.msc - reference.msc) / (ust - reference.ust)
            if rate.isFinite, rate >= 1, rate <= 1000 { measuredRate = rate }
            if ust - reference.ust >= 10 { self.reference = (ust, complete.msc) }
        } else if reference == nil || complete.msc <= reference!.msc {
            reference = (ust, complete.msc)
        }
        completions += 1
        guard let pending, complete.serial_number == pending.serial else { return .some(nil) }
        self.pending = nil
        missed = 0
        return .some(ust)
    }

    /// Stops the events (before the window is destroyed).
    func close() {
        if eventID != 0 { XPresentFreeInput(display, window, eventID) }
        eventID = 0
        pending = nil
    }
}
