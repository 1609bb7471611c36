import Markup
import Testing

@Suite("HTML text")
struct HTMLTextTests {
    @Test("tags go, entities decode, paragraphs stay")
    func plainText() {
        let html =
            "<p>Join us &amp; friends&#33;</p><p>Bring<br>water &ndash; and a <b>towel</b>.</p><script>x()</script><ul><li>One</li><li>Two</li></ul>"
        #expect(
            HTMLText.plainText(fromHTML: html)
                == "Join us & friends!\n\nBring\nwater – and a towel.\n\n• One\n• Two")
    }

    @Test("a page with Windows line ends gives the same text, no carriage return left")
    func windowsLineEnds() {
        let html = "<p>Open swim\r\n   at noon</p>\r\n\r\n\r\n<p>Bring  water</p>"
        #expect(HTMLText.plainText(fromHTML: html) == "Open swim\nat noon\n\nBring water")
    }
}

@Suite("HTML start tags")
struct HTMLTagsTests {
    @Test(
        "double, single, unquoted and bare attributes, names in any case, entities decoded; lookalike names skipped"
    )
    func attributes() throws {
        let html = #"""
            <canvasx id="no"><CANVAS Class="occupancy-chart" data-occupancy='165' data-ratio=0.14 hidden
              data-label="War &amp; Memorial"><canvas/><p>
            """#
        let tags = HTMLTags.find("canvas", in: html)
        try #require(tags.count == 2)
        #expect(
            tags[0].attributes == [
                "class": "occupancy-chart", "data-occupancy": "165", "data-ratio": "0.14", "hidden": "",
                "data-label": "War & Memorial",
            ])
        #expect(tags[0].name == "canvas")
        #expect(html[tags[0].end...].hasPrefix("<canvas/>"))
        #expect(tags[1].attributes.isEmpty)
    }

    @Test("a tag cut off at the end of the page still gives what it has")
    func truncated() {
        let tags = HTMLTags.find("div", in: #"<div data-facilityid="abc" class="#)
        #expect(tags.first?.attributes["data-facilityid"] == "abc")
    }
}
