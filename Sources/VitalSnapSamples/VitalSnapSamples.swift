// Module VitalSnapSamples
