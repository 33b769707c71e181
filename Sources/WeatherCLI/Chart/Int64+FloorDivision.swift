extension Int64 {
    /// Division rounding toward negative infinity.
    static func floorDivision(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }

    /// The remainder that goes with `floorDivision`, in `0..<b` for a positive `b`.
    static func floorModulo(_ a: Int64, _ b: Int64) -> Int64 { a - floorDivision(a, b) * b }
}
