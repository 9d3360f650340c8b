import Testing
@testable import VitalSnapInference

@Test func featureMapHoldsEveryValueInHWCOrder() {
    var map = FeatureMap(height: 2, width: 3, channels: 4, fill: 1)
    #expect(map.values.count == 24)
    map[1, 2, 3] = 7
    #expect(map.values[(1 * 3 + 2) * 4 + 3] == 7)
    #expect(map.values.filter { $0 == 1 }.count == 23)
}

@Test func reshapingKeepsTheStorage() {
    var map = FeatureMap(height: 10, width: 12, channels: 5)
    let capacity = map.capacity
    func address(_ map: FeatureMap) -> UInt { map.values.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
    let before = address(map)
    map.reshape(height: 3, width: 4, channels: 2)
    #expect(map.values.count == 24 && map.height == 3 && map.width == 4 && map.channels == 2)
    map.reshape(height: 12, width: 10, channels: 5)
    #expect(map.values.count == 600)
    #expect(map.capacity == capacity)
    #expect(address(map) == before)
    map.reshape(height: 20, width: 20, channels: 5)
    #expect(map.values.count == 2000 && map.capacity >= 2000)
}
