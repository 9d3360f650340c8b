import XCTest

final class VitalSnapOCRTestsPlaceholder: XCTestCase {}
