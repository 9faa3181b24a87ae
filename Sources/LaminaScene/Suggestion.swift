/// "Did you mean ...?" for misspelt keys and names.
enum Suggestion {
    /// The candidate `word` most likely misspells, or nil when none is close.
    ///
    /// Close means equal ignoring case, or at most 2 edits away (1 for words of 4 characters or fewer, where
    /// 2 edits would make almost anything "close"); an edit is an insertion, a deletion, a substitution or a
    /// swap of two neighbours ("opactiy"). Ties go to the earlier candidate.
    static func closest(to word: String, in candidates: [String]) -> String? {
        if let match = candidates.first(where: { $0.lowercased() == word.lowercased() }) { return match }
        let limit = word.count <= 4 ? 1 : 2
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(word, candidate, limit: limit)
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// The optimal-string-alignment distance between `a` and `b`, or `limit + 1` as soon as it must exceed
    /// `limit`.
    static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        let a = Array(a)
        let b = Array(b)
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return limit + 1 }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
