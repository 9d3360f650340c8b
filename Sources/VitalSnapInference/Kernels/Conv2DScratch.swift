/// Scratch memory of `Conv2DKernel`, kept by its caller between calls so that they allocate nothing: input
/// values broadcast to four lanes (expanded input rows, or one output row's patches for a single input
/// channel), and which input row each expanded-row slot holds.
struct Conv2DScratch: Sendable {
    var values: [SIMD4<Float>] = []
    var slotRows: [Int] = []

    init() {}

    /// At least `count` values, and `slots` slots that hold no row.
    mutating func prepare(count: Int, slots: Int) {
        if values.count < count { values.append(contentsOf: repeatElement(.zero, count: count - values.count)) }
        slotRows.removeAll(keepingCapacity: true)
        slotRows.append(contentsOf: repeatElement(-1, count: max(slots, 1)))
    }

    /// The values the scratch holds without growing.
    var capacity: Int { values.capacity + slotRows.capacity }
}
