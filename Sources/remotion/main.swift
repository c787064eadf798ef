print("remotion")
