import Testing
@testable import VitalSnapInference

@Test func featureMapHoldsEveryValue() {
    let map = FeatureMap(height: 2, width: 3, channels: 4, fill: 1)
    #expect(map.values.count == 24)
}
