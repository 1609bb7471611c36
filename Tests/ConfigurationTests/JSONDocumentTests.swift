import Configuration
import Testing

@Suite("JSONDocument: editing the config file keeps what the person wrote")
struct JSONDocumentTests {
    @Test("keys keep their order, numbers and strings their exact text")
    func roundTrip() throws {
        let text = #"{"z": 1.50, "a": {"é\u00e9": "x\"y", "list": [1e3, true, null, []]}, "m": {}}"#
        let document = try #require(JSONDocument.parse(Array(text.utf8)))
        #expect(
            document.text == """
                {
                  "z": 1.50,
                  "a": {
                    "éé": "x\\"y",
                    "list": [
                      1e3,
                      true,
                      null,
                      []
                    ]
                  },
                  "m": {}
                }

                """)
        // What it writes parses back to the same document.
        #expect(JSONDocument.parse(Array(document.text.utf8)) == document)
    }

    @Test("set replaces in place, appends new keys at the end, and removes with nil")
    func set() throws {
        var document = try #require(JSONDocument.parse(Array(#"{"b": 1, "a": 2}"#.utf8)))
        document.set("b", to: .number(3))
        document.set("c", to: .string("new\nline \"quoted\""))
        document.set("a", to: nil)
        #expect(document.text == "{\n  \"b\": 3,\n  \"c\": \"new\\nline \\\"quoted\\\"\"\n}\n")
        #expect(document["c"] == .string("new\nline \"quoted\""))
        #expect(document["a"] == nil)
    }

    @Test(
        "what is not JSON is refused",
        arguments: ["", "{", "{\"a\" 1}", "[1,]", "{\"a\": tru}", "{} x", "'a'"])
    func invalid(text: String) {
        #expect(JSONDocument.parse(Array(text.utf8)) == nil)
    }
}
