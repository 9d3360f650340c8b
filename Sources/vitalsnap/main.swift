import ArgumentParser

VitalSnapCommand.main()
