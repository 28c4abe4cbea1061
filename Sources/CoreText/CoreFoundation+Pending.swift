// TEMPORARY until helper-cgcontext is merged: that branch declares these two in CoreGraphics
// (CoreFoundationNames.swift). Delete this file on merge.
public typealias CFArray = [Any]
public typealias CFDictionary = [AnyHashable: Any]
