/// Text made safe to put in HTML, in an element or a quoted attribute: an
/// athlete called "<b>Ana & Bo</b>" shows as typed and never as markup.
public enum HTMLText {
    public static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
