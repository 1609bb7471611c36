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
}
