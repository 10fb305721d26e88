/// Which inbox requests fail, and how: a function of the seed, the inbox, the activity and the
/// attempt, so a run is replayed by giving the same seed (`--seed`). Only the first
/// `faultyAttempts` attempts of an activity at an inbox may fail; after that the inbox answers,
/// so every delivery can finish and the queue can drain within the run.
struct FaultPlan: Sendable {
    enum Fault: Sendable, Equatable {
        case none
        case status(Int)
        case retryAfter(Int)
        case stall
        case reset
    }

    let seed: UInt64
    /// The chance that one of the first attempts fails.
    let rate: Double
    let faultyAttempts: Int
    /// `Retry-After` seconds a 429 asks for, at most.
    let longestRetryAfter: Int

    func fault(inbox: String, activity: String, attempt: Int) -> Fault {
        guard attempt < faultyAttempts else { return .none }
        var random = SplitMix64(seed: seed ^ Self.fnv1a(inbox) ^ (Self.fnv1a(activity) &* 31) ^ UInt64(attempt) &* 0x9E37_79B9)
        guard random.unit() < rate else { return .none }
        switch random.next() % 4 {
        case 0: return .status([500, 502, 503][Int(random.next() % 3)])
        case 1: return .retryAfter(1 + Int(random.next() % UInt64(longestRetryAfter)))
        case 2: return .stall
        default: return .reset
        }
    }

    /// FNV-1a: a stable hash (Swift's `Hasher` is seeded per process, which would make a run
    /// impossible to replay).
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash
    }
}

/// A small seeded generator (Steele, Lea and Flood's SplitMix64).
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
