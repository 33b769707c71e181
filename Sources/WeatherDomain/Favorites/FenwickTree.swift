/// A binary indexed tree of counts that grows at the end: prefix sums, updates, appends and "the index of
/// the n-th counted element" in O(log n).
struct FenwickTree: Sendable, Equatable {
    /// 1-based: `tree[i]` sums the counts of the elements `i - lowbit(i) + 1 … i`; `tree[0]` is unused.
    private var tree: [Int32] = [0]

    init() {}

    /// A tree of `count` elements counted 1 each.
    init(ones count: Int) {
        tree = [Int32](repeating: 0, count: count + 1)
        for index in stride(from: 1, through: count, by: 1) {
            tree[index] += 1
            let parent = index + (index & -index)
            if parent <= count { tree[parent] += tree[index] }
        }
    }

    /// The number of elements (counted or not).
    var count: Int { tree.count - 1 }

    /// The sum of the counts of the first `length` elements.
    func prefixSum(_ length: Int) -> Int {
        var sum = 0
        var index = length
        while index > 0 {
            sum += Int(tree[index])
            index -= index & -index
        }
        return sum
    }

    /// Appends an element with `value`.
    mutating func append(_ value: Int32) {
        let index = tree.count
        let span = index & -index
        tree.append(value + Int32(prefixSum(index - 1) - prefixSum(index - span)))
    }

    /// Adds `delta` to the count of the element at 0-based `position`.
    mutating func add(_ delta: Int32, at position: Int) {
        var index = position + 1
        while index < tree.count {
            tree[index] += delta
            index += index & -index
        }
    }

    /// The 0-based position of the `n`-th counted element (1-based `n`), or nil when fewer are counted.
    func index(ofNth n: Int) -> Int? {
        guard n >= 1 else { return nil }
        var position = 0
        var remaining = n
        var step = 1
        while step * 2 <= count { step *= 2 }
        while step > 0 {
            let next = position + step
            if next <= count, Int(tree[next]) < remaining {
                position = next
                remaining -= Int(tree[next])
            }
            step /= 2
        }
        return position < count ? position : nil
    }
}
