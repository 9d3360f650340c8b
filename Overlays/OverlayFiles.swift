import Foundation

/// Where the peripheral definitions and overlay images of this folder are found at run time.
///
/// This folder is a resource-only target so that `Overlays/` stays at the top of the repository, where people
/// look for it, while the built tool still finds its files next to the executable.
public enum OverlayFiles {
    public static var directory: URL? {
        Bundle.module.url(forResource: "peripherals", withExtension: nil)
    }
}
