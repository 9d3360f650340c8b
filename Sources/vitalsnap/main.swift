print("vitalsnap")
