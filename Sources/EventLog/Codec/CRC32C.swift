/// CRC-32C (Castagnoli), the checksum of every log line's `chain` and `crc` fields.
///
/// Slice-by-8 over a table built once; about 1–2 GB/s in a release build, which keeps full
/// verification of a large log cheap compared with decoding it.
public enum CRC32C {
    private static let polynomial: UInt32 = 0x82F6_3B78

    private static let tables: [[UInt32]] = {
        var tables = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
        for index in 0..<256 {
            var crc = UInt32(index)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ polynomial : crc >> 1 }
            tables[0][index] = crc
        }
        for index in 0..<256 {
            for slice in 1..<8 {
                let previous = tables[slice - 1][index]
                tables[slice][index] = (previous >> 8) ^ tables[0][Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    /// Returns the checksum of `bytes`, continuing from `crc` (the checksum of the bytes before them).
    public static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        var crc = ~crc
        tables.withUnsafeBufferPointer { t in
            let t0 = t[0], t1 = t[1], t2 = t[2], t3 = t[3], t4 = t[4], t5 = t[5], t6 = t[6], t7 = t[7]
            var index = 0
            let count = bytes.count
            while count - index >= 8 {
                let low =
                    crc
                    ^ (UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8
                        | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24)
                let high =
                    UInt32(bytes[index + 4]) | UInt32(bytes[index + 5]) << 8
                    | UInt32(bytes[index + 6]) << 16 | UInt32(bytes[index + 7]) << 24
                crc =
                    t7[Int(low & 0xFF)] ^ t6[Int((low >> 8) & 0xFF)] ^ t5[Int((low >> 16) & 0xFF)]
                    ^ t4[Int(low >> 24)] ^ t3[Int(high & 0xFF)] ^ t2[Int((high >> 8) & 0xFF)]
                    ^ t1[Int((high >> 16) & 0xFF)] ^ t0[Int(high >> 24)]
                index += 8
            }
            while index < count {
                crc = t0[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
                index += 1
            }
        }
        return ~crc
    }

    /// Returns the checksum of a byte collection, continuing from `crc`.
    public static func checksum(_ bytes: some Collection<UInt8>, continuing crc: UInt32 = 0) -> UInt32 {
        if let result = bytes.withContiguousStorageIfAvailable({ checksum(UnsafeRawBufferPointer($0), continuing: crc) }
        ) {
            return result
        }
        return Array(bytes).withUnsafeBytes { checksum($0, continuing: crc) }
    }

    /// Formats a checksum as the log's 8 lowercase hex digits.
    public static func hex(_ value: UInt32) -> [UInt8] {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out = [UInt8](repeating: 0, count: 8)
        var value = value
        for index in stride(from: 7, through: 0, by: -1) {
            out[index] = digits[Int(value & 0xF)]
            value >>= 4
        }
        return out
    }
}
