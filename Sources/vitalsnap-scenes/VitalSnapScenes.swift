import VitalSnapTrainingSetCommand

/// `vitalsnap-scenes`: `vitalsnap samples training-set` alone, linked against the scene generator and nothing
/// else (no SQLite, D-Bus, libxml2 or HTTP), so that `Training/gpu/pack.sh` can carry it with its libraries to a
/// training machine that has no Swift.
@main
struct VitalSnapScenes {
    static func main() {
        TrainingSetCommand.main()
    }
}
