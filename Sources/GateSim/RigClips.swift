import GateCore

/// Clips for the VM rig's camera path: frames injected through vivid's
/// output-to-capture loop, whose HDMI timings the rig sets to 640x480 at
/// 59.94 Hz. What they test is the path (kernel stamps into the detector's
/// time base), not the detector's limits, so the runner is an easy one:
/// upright, steady, a dark shirt on a light lane. It crosses 3 s in, so
/// the box, started once the clip shows, can learn the empty lane and arm.
public enum RigClips {
    public static func clips() -> [ClipSpec] {
        let camera = CameraModel(width: 640, height: 480, viewWidthMetres: 4, readoutNanos: 0,
                                 exposureNanos: 1_000_000, noiseSigma: 1.5)
        let runner = Runner(crossingNanos: 3_000_000_000, lineX: 2, speedAtLine: 6, direction: .leftToRight,
                            lean: 0.05, shirtLuma: 40, skinLuma: 120, legLuma: 70, stridePhase: 1.0)
        return [ClipSpec(name: "rig-vivid-640x480-60", kind: "VM rig: one flying runner for vivid's loop",
                         fps: 60, frameCount: 210, camera: camera, scene: Scene(runners: [runner]),
                         gatePosition: 0.5, seed: 7)]
    }
}
