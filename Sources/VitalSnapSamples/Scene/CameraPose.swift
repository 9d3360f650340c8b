import Foundation

/// Turns the pose in `SceneParameters` into the homography that carries the flat device layer into the
/// camera frame.
///
/// The device plane is rotated in 3D (pitch, yaw, then the in-plane tilt) about the display's centre and
/// seen through a pinhole camera with a phone-like field of view (focal length 0.9 x the long side). A
/// plane seen through a pinhole is exactly a homography, so four projected corners determine it.
enum CameraPose {
    /// - Parameters:
    ///   - layerSize: the device layer in pixels; `display` is the display window in it.
    ///   - displayWidthPixels: the display's width in the frame at the pose's centre.
    static func homography(
        layerWidth: Double, layerHeight: Double, display: QuadCorners, displayWidthPixels: Double,
        center: CanvasPoint, tiltDegrees: Double, pitchDegrees: Double, yawDegrees: Double, frameLongSide: Double
    ) -> PlaneHomography {
        let dc = display.centroid
        let k = displayWidthPixels / max(1e-9, display.topRight.x - display.topLeft.x)
        let f = 0.9 * frameLongSide
        let (tz, px, yw) = (tiltDegrees * .pi / 180, pitchDegrees * .pi / 180, yawDegrees * .pi / 180)
        func project(_ p: CanvasPoint) -> CanvasPoint {
            var x = (p.x - dc.x) * k, y = (p.y - dc.y) * k, z = 0.0
            // Yaw about the vertical axis.
            (x, z) = (x * cos(yw) + z * sin(yw), -x * sin(yw) + z * cos(yw))
            // Pitch about the horizontal axis.
            (y, z) = (y * cos(px) - z * sin(px), y * sin(px) + z * cos(px))
            // In-plane tilt.
            (x, y) = (x * cos(tz) - y * sin(tz), x * sin(tz) + y * cos(tz))
            let depth = f + z
            return CanvasPoint(center.x + f * x / depth, center.y + f * y / depth)
        }
        let corners = QuadCorners(x: 0, y: 0, width: layerWidth, height: layerHeight)
        return PlaneHomography(from: corners, to: corners.map(project)) ?? .identity
    }
}
