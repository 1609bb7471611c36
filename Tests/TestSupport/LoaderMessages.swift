/// `text` with the folder taken out of each library file `dlerror()` names in parentheses
/// ("(/lib/x86_64-linux-gnu/libzbar.so.0: file too short)" gives "(libzbar.so.0: file too short)"): the
/// loader reports the file as it found it, under /lib or /usr/lib, which a test does not choose.
public func withoutLibraryFolders(_ text: String) -> String {
    text.replacing(#/\(/\S*/(lib[^ :/]+): /#) { "(\($0.output.1): " }
}
