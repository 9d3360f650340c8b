import XCTest

final class VitalSnapImagingTestsPlaceholder: XCTestCase {}
