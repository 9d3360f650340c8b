import XCTest

final class VitalSnapCLITestsPlaceholder: XCTestCase {}
