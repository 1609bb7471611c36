import Configuration
import Foundation
import Testing

@Suite("Where a config file stops being JSON")
struct JSONSyntaxTests {
    @Test(
        "the line, the column and what was expected",
        arguments: [
            ("{\n  \"occupancy\": {\n    \"timeZone\": x\n  }\n}", 3, 17, "expected a value, found 'x'"),
            (#"{"a": 1,}"#, 1, 9, "a comma before }"),
            (#"[1, 2,]"#, 1, 7, "a comma before ]"),
            (
                "{'a': 1}", 1, 2,
                "expected a key in double quotes, found a single quote (JSON needs double quotes)"
            ),
            (#"{"a" 1}"#, 1, 6, "expected : after the key"),
            (#"{"a": 1 "b": 2}"#, 1, 9, "expected , or } after a value, found '\"'"),
            (#"{"a": tru}"#, 1, 10, "expected a value (true?)"),
            (#"{"a": 01}"#, 1, 8, "expected , or the end of the number, found '1'"),
            ("{\"a\": \"x\n\"}", 1, 9, "a line break inside a string (a missing \")"),
            (#"{"a": "x"#, 1, 7, "a string that never ends"),
            (#"{"é": "ü", "b": ?}"#, 1, 17, "expected a value, found '?'"),
            (#"{} {}"#, 1, 4, "more text after the end"),
            ("", 1, 1, "the file ends where a value should be"),
        ])
    func mistakes(text: String, line: Int, column: Int, what: String) {
        #expect(
            JSONSyntax.mistake(in: Array(text.utf8))
                == JSONSyntax.Mistake(line: line, column: column, what: what))
    }

    @Test(
        "valid JSON passes",
        arguments: [
            #"{}"#, #"[]"#, #"{"a": [1, -2.5e+3, true, false, null, "x\"\\\/\u00e9\n"], "b": {}}"#,
            " \n\t{ }\r\n", "0",
        ])
    func valid(text: String) {
        #expect(JSONSyntax.mistake(in: Array(text.utf8)) == nil)
    }

    @Test("a wrong root type names the top level, not an empty key")
    func rootType() throws {
        #expect(throws: ConfigProblem("the top level must be an object ({ … }), not an array")) {
            try ConfigProblem.checkDocument(Data("[]".utf8))
        }
        #expect(throws: ConfigProblem("the top level must be an object ({ … }), not a single value")) {
            try ConfigProblem.checkDocument(Data("3".utf8))
        }
        #expect(throws: Never.self) { try ConfigProblem.checkDocument(Data(#"{"a": 1}"#.utf8)) }
    }
}

@Suite("Unknown keys in the config file")
struct ConfigShapeTests {
    let shape = ConfigShape.object([
        "occupancy": .object([
            "timeZone": .value, "facilities": .list(.object(["key": .value, "capacity": .value])),
        ]),
        "hours": .object(["facilities": .map(.object(["weekly": .map(.value)]))]),
    ])

    @Test("each unknown key by its path, with the closest known key when one is close")
    func unknown() {
        let file = Data(
            #"""
            {"ocupancy": {}, "occupancy": {"TimeZone": "x", "facilities": [{"key": "a", "capcity": 3}, {"kee": "b"}]},
             "hours": {"facilities": {"my-wall": {"weekley": {}, "weekly": {"monday": "closed"}}}}, "colour": true}
            """#.utf8)
        #expect(
            shape.unknownKeys(in: file).map(\.description) == [
                "unknown key colour; it is ignored",
                "unknown key hours.facilities.my-wall.weekley (did you mean weekly?); it is ignored",
                "unknown key occupancy.TimeZone (did you mean timeZone?); it is ignored",
                "unknown key occupancy.facilities[0].capcity (did you mean capacity?); it is ignored",
                "unknown key occupancy.facilities[1].kee (did you mean key?); it is ignored",
                "unknown key ocupancy (did you mean occupancy?); it is ignored",
            ])
    }

    @Test("a known file has none; a file that is not JSON has none (reported elsewhere)")
    func none() {
        #expect(shape.unknownKeys(in: Data(#"{"occupancy": {"timeZone": "x"}}"#.utf8)).isEmpty)
        #expect(shape.unknownKeys(in: Data("{".utf8)).isEmpty)
    }
}
