/// Record Access Control Point (0x2A52): how a glucose meter is asked for its stored records. The collector
/// writes a request (with indications on); the meter sends the records as Glucose Measurement notifications,
/// then indicates a response here.
public enum RecordAccessControlPoint {
    public static let uuid: UInt16 = 0x2A52

    /// A request, as the bytes to write.
    public enum Request: Equatable, Sendable {
        /// "Report stored records", all of them: `01 01`.
        case reportAllRecords
        /// Records whose sequence number is at least this (operator 3, filter type 1): `01 03 01 lo hi`.
        case reportRecords(fromSequenceNumber: UInt16)
        /// "Report number of stored records", all: `04 01`.
        case reportNumberOfRecords
        /// "Abort operation": `03 00`.
        case abort

        public var bytes: [UInt8] {
            switch self {
            case .reportAllRecords: [0x01, 0x01]
            case .reportRecords(let sequence): [0x01, 0x03, 0x01, UInt8(sequence & 0xFF), UInt8(sequence >> 8)]
            case .reportNumberOfRecords: [0x04, 0x01]
            case .abort: [0x03, 0x00]
            }
        }
    }

    /// The response codes of op code 6.
    public enum ResponseCode: UInt8, Sendable, CustomStringConvertible {
        case success = 1, opCodeNotSupported, invalidOperator, operatorNotSupported, invalidOperand, noRecordsFound,
            abortUnsuccessful, procedureNotCompleted, operandNotSupported

        public var description: String {
            switch self {
            case .success: "success"
            case .opCodeNotSupported: "op code not supported"
            case .invalidOperator: "invalid operator"
            case .operatorNotSupported: "operator not supported"
            case .invalidOperand: "invalid operand"
            case .noRecordsFound: "no records found"
            case .abortUnsuccessful: "abort unsuccessful"
            case .procedureNotCompleted: "procedure not completed"
            case .operandNotSupported: "operand not supported"
            }
        }
    }

    /// What the meter indicates.
    public enum Response: Equatable, Sendable {
        /// Op code 5: the number of stored records (to a "report number of records" request).
        case numberOfRecords(Int)
        /// Op code 6: how the request with this op code ended.
        case response(requestOpCode: UInt8, code: ResponseCode)

        public init(_ bytes: [UInt8]) throws(GATTDecodeError) {
            let name = "Record Access Control Point (2A52)"
            var reader = GATTReader(bytes, characteristic: name)
            let opCode = try reader.uint8("op code")
            _ = try reader.uint8("operator")  // null (0) in responses
            switch opCode {
            case 5:
                self = .numberOfRecords(Int(try reader.uint16("number of records")))
            case 6:
                let request = try reader.uint8("request op code")
                let raw = try reader.uint8("response code")
                guard let code = ResponseCode(rawValue: raw) else {
                    throw .invalidField(characteristic: name, field: "response code", detail: "\(raw) is not defined")
                }
                self = .response(requestOpCode: request, code: code)
            default:
                throw .invalidField(characteristic: name, field: "op code", detail: "\(opCode) is not a response (5 or 6)")
            }
        }
    }
}
