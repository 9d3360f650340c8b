// Module VitalSnapOCR
