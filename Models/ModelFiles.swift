import Foundation

/// Where the trained reader's model files are found at run time.
///
/// This folder is a resource-only target so that `Models/` stays at the top of the repository, beside its
/// model card (`Models/README.md`), while the built tool still finds the files next to the executable.
public enum ModelFiles {
    /// The folder holding `line-detector.safetensors` and `line-recognizer.safetensors`.
    public static var directory: URL? {
        Bundle.module.url(forResource: "reader", withExtension: nil)
    }
}
