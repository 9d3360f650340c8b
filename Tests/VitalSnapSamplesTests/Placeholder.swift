import XCTest

final class SamplesPlaceholder: XCTestCase {}
