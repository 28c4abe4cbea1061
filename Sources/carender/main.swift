import ArgumentParser
Carender.main()
