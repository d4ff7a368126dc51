import CGateShim
import GateCore

/// Writes grey pictures as PNG files: GateCore's container, zlib's deflate.
public enum PNGFile {
    /// The PNG bytes of `image`.
    public static func encode(_ image: GreyImage) throws(GateError) -> [UInt8] {
        guard let compressed = Zlib.compress(PNG.scanlines(image)) else {
            throw GateError("PNG encoder", "zlib could not compress a " + String(image.width) + "x"
                + String(image.height) + " picture (out of memory?)")
        }
        return PNG.file(width: image.width, height: image.height, zlibScanlines: compressed)
    }

    /// Writes `image` to `path`, replacing a file already there.
    public static func write(_ image: GreyImage, to path: String) throws(GateError) {
        let bytes = try encode(image)
        do throws(Errno) {
            let fd = try FileDescriptor.open(path, [.writeOnly, .create, .truncate])
            defer { fd.close() }
            // withUnsafeBytes rethrows untyped errors; carry ours out by hand.
            var failure: Errno?
            bytes.withUnsafeBytes { raw in
                do throws(Errno) { try fd.writeAll(raw) } catch { failure = error }
            }
            if let failure { throw failure }
        } catch {
            throw GateError(path, error, doing: "writing the picture")
        }
    }

}
