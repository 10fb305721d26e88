// libFuzzer target: the static fast path's request reader against NIO's (StaticHeadDifferential).
// Traps on any head the two read differently.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStaticHead(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let difference = StaticHeadDifferential.disagreement(Array(UnsafeBufferPointer(start: data, count: size))) {
        fatalError("the fast path and NIO disagree: \(difference)\ninput: \(String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self).debugDescription)")
    }
    return 0
}
