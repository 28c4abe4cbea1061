import Foundation

// Files a scene names (images, fonts): paths relative to the scene file's folder.

extension SceneReader {
    /// The resolved path of the file `rel` names (`what`: "image", "font" for messages), or nil
    /// with a problem reported. The path may not be empty, absolute, contain `..` or resolve
    /// (through symlinks) outside the scene's folder unless `allowImagesOutsideSceneFolder` is
    /// set; the file must exist and be a regular file of at most `maxImageBytes` bytes.
    func sceneFile(_ rel: String, _ path: String, _ node: JSONNode, what: String) -> String? {
        guard !rel.isEmpty, !rel.contains("\0") else { problem(path, node, "\(what) path is empty"); return nil }
        let allowOutside = options.allowImagesOutsideSceneFolder
        let isAbsolute = rel.hasPrefix("/")
        guard let baseDirectory else {
            problem(path, node, "\(what) \"\(rel.prefix(200))\" cannot be read: no scene folder was given (set the decoder's userInfo[.sceneDirectory])")
            return nil
        }
        if !allowOutside {
            if isAbsolute {
                problem(path, node, "\(what) path \"\(rel.prefix(200))\" is absolute; paths are relative to the scene file's folder")
                return nil
            }
            if rel.split(separator: "/").contains("..") {
                problem(path, node, "\(what) path \"\(rel.prefix(200))\" leaves the scene's folder (\"..\")")
                return nil
            }
        }
        let url = isAbsolute ? URL(fileURLWithPath: rel) : baseDirectory.appendingPathComponent(rel)
        let resolved = url.standardizedFileURL.resolvingSymlinksInPath().path
        if !allowOutside {
            let base = baseDirectory.standardizedFileURL.resolvingSymlinksInPath().path
            let prefix = base.hasSuffix("/") ? base : base + "/"
            guard resolved.hasPrefix(prefix) else {
                problem(path, node, "\(what) path \"\(rel.prefix(200))\" resolves outside the scene's folder (symbolic link)")
                return nil
            }
        }
        return resolved
    }

    /// Checks that `resolved` (from `sceneFile`) is a readable regular file within
    /// `maxImageBytes` and returns its bytes, or nil with a problem reported.
    func sceneFileData(_ resolved: String, _ rel: String, _ path: String, _ node: JSONNode, what: String) -> Data? {
        guard FileManager.default.fileExists(atPath: resolved) else {
            problem(path, node, "\(what) file \"\(rel.prefix(200))\" not found")
            return nil
        }
        let attributes = (try? FileManager.default.attributesOfItem(atPath: resolved)) ?? [:]
        guard (attributes[.type] as? FileAttributeType) == .typeRegular else {
            problem(path, node, "\(what) path \"\(rel.prefix(200))\" is not a regular file")
            return nil
        }
        let bytes = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard bytes <= limits.maxImageBytes else {
            problem(path, node, "\(what) file \"\(rel.prefix(200))\" has \(bytes) bytes; at most \(limits.maxImageBytes) are allowed (limit maxImageBytes)")
            return nil
        }
        guard let data = FileManager.default.contents(atPath: resolved) else {
            problem(path, node, "\(what) file \"\(rel.prefix(200))\" cannot be read")
            return nil
        }
        return data
    }
}
