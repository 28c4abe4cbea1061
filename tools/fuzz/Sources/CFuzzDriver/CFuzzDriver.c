// Empty: the target only exports its header (SwiftPM needs one source file).
