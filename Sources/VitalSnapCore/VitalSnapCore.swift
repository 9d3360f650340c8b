// Module VitalSnapCore
