import CoreImage
import Foundation

/// A JSON Schema (draft 2020-12) of the scene format, generated from the same tables the reader
/// checks against (`SceneSchema`, `SceneConstants`), so the two cannot drift:
/// `docs/scene.schema.json` is this text (`SceneJSONSchemaTests` compares them; run with
/// `CA_WRITE_SCENE_SCHEMA=1` to rewrite it). The schema checks the shape of a document — its
/// members, the layer classes and which members each class has, the JSON form of every value —
/// for editors and other tools; `carender validate` checks the rest (animation values typed by
/// the animated key path, limits, images). Extension beyond Apple's API (Apple has no scene
/// format).
extension SceneSchema {
    /// The schema document as JSON text.
    static func jsonSchemaText() -> String { JSONWriter.write(jsonSchema()) + "\n" }

    static func jsonSchema() -> JSONValue {
        let layerClassNames = layerClasses.compactMap { className(of: makeLayer($0)) }
        var layerProps: [(String, JSONValue)] = [
            ("class", obj(["enum": .array(layerClassNames.map { n(.string($0)) }), "description": .string("The layer class; CALayer when absent.")])),
            ("frame", ref("rect")),
            ("mask", ref("layer")),
            ("sublayers", obj(["type": .string("array"), "items": ref("layer")])),
            ("animations", obj(["type": .string("array"), "items": ref("animation")])),
            ("filters", obj(["type": .string("array"), "items": ref("filter")])),
            ("backgroundFilters", obj(["type": .string("array"), "items": ref("filter")])),
            ("compositingFilter", obj(["description": .string("Apple's string (\"multiplyBlendMode\", \"plusL\" …) or a blend/compositing filter object."),
                                       "anyOf": .array([n(obj(["type": .string("string")])), n(ref("filter"))])])),
        ]
        var seen = Set(layerProps.map(\.0))
        for p in layer where seen.insert(p.name).inserted { layerProps.append((p.name, valueSchema(p))) }
        // Members only some classes have: allowed only with their class.
        var classOnly: [JSONValue] = []
        for cls in layerClasses where cls != CALayer.self {
            guard let name = className(of: makeLayer(cls)) else { continue }
            for p in properties(of: cls) where !layer.contains(where: { $0.name == p.name }) {
                if seen.insert(p.name).inserted { layerProps.append((p.name, valueSchema(p))) }
                classOnly.append(obj(["if": obj(["required": .array([n(.string(p.name))])]),
                                      "then": obj(["required": .array([n(.string("class"))]),
                                                   "properties": ordered([("class", obj(["const": .string(name)]))])])]))
            }
        }
        // Members a class reads by code rather than through its property table.
        let codeRead: [(String, String, JSONValue)] = [
            ("CATextLayer", "string", obj(["description": .string("Plain text, or attributed runs (docs/SCENE-FORMAT.md, Text layers)."),
                                           "anyOf": .array([n(obj(["type": .array([n(.string("string")), n(.string("null"))])])),
                                                            n(obj(["type": .string("array"), "items": ref("textRun")]))])])),
            ("CATextLayer", "font", ref("font")),
            ("CAEmitterLayer", "emitterCells", obj(["type": .string("array"), "items": ref("emitterCell")])),
            ("CAVideoLayer", "source", obj(["type": .string("string"), "description": .string("A video file, relative to the scene's folder (docs/SCENE-FORMAT.md, Video layers).")])),
            ("LottieAnimationLayer", "file", obj(["type": .string("string"), "description": .string("A Lottie .json or dotLottie .lottie file, relative to the scene's folder (docs/SCENE-FORMAT.md, Lottie layers).")])),
            ("LottieAnimationLayer", "progress", obj(["type": .string("number"), "description": .string("Shown paused at this progress (0 start, 1 end); without it the animation plays from scene time 0.")])),
            ("LottieAnimationLayer", "animationSpeed", obj(["type": .string("number")])),
            ("LottieAnimationLayer", "loopMode", obj(["enum": .array(SceneReader.lottieLoopModes.keys.sorted().map { n(.string($0)) })])),
            ("LottieAnimationLayer", "contentMode", obj(["enum": .array(SceneReader.lottieContentModes.keys.sorted().map { n(.string($0)) })])),
        ]
        for (cls, name, value) in codeRead {
            if seen.insert(name).inserted { layerProps.append((name, value)) }
            classOnly.append(obj(["if": obj(["required": .array([n(.string(name))])]),
                                  "then": obj(["required": .array([n(.string("class"))]),
                                               "properties": ordered([("class", obj(["const": .string(cls)]))])])]))
        }
        let layerSchema = ordered([
            ("type", .string("object")),
            ("description", .string("A layer: its class, Apple's Swift property names as members, mask, sublayers and animations (docs/SCENE-FORMAT.md, Layers).")),
            ("properties", ordered(layerProps)),
            ("patternProperties", ordered([("^x-", obj([:]))])),
            ("additionalProperties", .bool(false)),
            ("allOf", .array(classOnly.map { n($0) })),
        ])
        let timingProps = timing.map { p in (p.name, valueSchema(p)) }
        let animationSchema = ordered([
            ("type", .string("object")),
            ("description", .string("An animation (docs/SCENE-FORMAT.md, Animations). Its values are typed by the animated key path; carender validate checks them.")),
            ("required", .array([n(.string("class"))])),
            ("properties", ordered([
                ("class", obj(["enum": .array(SceneReader.animationClasses.map { n(.string($0)) })])),
                ("key", obj(["type": .string("string")])),
                ("keyPath", obj(["type": .string("string")])),
                ("timingFunction", ref("timingFunction")),
                ("isRemovedOnCompletion", obj(["type": .string("boolean")])),
                ("animations", obj(["type": .string("array"), "items": ref("animation")])),
            ] + timingProps)),
        ])
        let transaction = ordered([
            ("type", .string("object")),
            ("description", .string("Changes applied at a time, as in a CATransaction (docs/SCENE-FORMAT.md, Transactions).")),
            ("required", .array([n(.string("time")), n(.string("changes"))])),
            ("properties", ordered([
                ("time", obj(["type": .string("number")])),
                ("animationDuration", obj(["type": .string("number")])),
                ("animationTimingFunction", ref("timingFunction")),
                ("disableActions", obj(["type": .string("boolean")])),
                ("changes", obj(["type": .string("array"), "items": obj(["type": .string("object")])])),
            ])),
        ])
        // One attributed run of a text layer's `string` (`SceneSchema.runFields`).
        let runKinds: [String: JSONValue] = [
            "text": obj(["type": .string("string")]), "font": ref("font"), "foregroundColor": ref("color"),
            "underlineColor": ref("color"), "strokeColor": ref("color"),
            "underline": obj(["enum": .array(underlineStyles.keys.sorted().map { n(.string($0)) })]),
        ]
        let textRun = ordered([
            ("type", .string("object")),
            ("required", .array([n(.string("text"))])),
            ("properties", ordered(runFields.map { ($0, runKinds[$0] ?? ref("number")) })),
            ("additionalProperties", .bool(false)),
        ])
        let font = obj(["description": .string("A font name, or {\"file\": path} relative to the scene."),
                        "anyOf": .array([n(obj(["type": .string("string")])),
                                         n(obj(["type": .string("object"), "required": .array([n(.string("file"))]),
                                                "properties": obj(["file": obj(["type": .string("string")])]),
                                                "additionalProperties": .bool(false)]))])])
        // One `CAEmitterCell` (`SceneSchema.emitterCell`), its sub-cells nested.
        let emitterCellSchema = ordered([
            ("type", .string("object")),
            ("description", .string("An emitter cell: Apple's CAEmitterCell Swift property names as members (docs/SCENE-FORMAT.md, Emitter layers).")),
            ("properties", ordered(emitterCell.map { ($0.name, valueSchema(SceneProperty($0.name, $0.kind))) }
                                   + [("emitterCells", obj(["type": .string("array"), "items": ref("emitterCell")]))])),
            ("patternProperties", ordered([("^x-", obj([:]))])),
            ("additionalProperties", .bool(false)),
        ])
        // One Core Image filter (SceneReader+Filters.swift): its name and Apple's parameter keys.
        let filterSchema = ordered([
            ("type", .string("object")),
            ("description", .string("A Core Image filter: {\"filter\": \"CIGaussianBlur\", \"name\": \"blur\", \"inputRadius\": 8} (docs/SCENE-FORMAT.md, Filters).")),
            ("required", .array([n(.string("filter"))])),
            ("properties", ordered([
                ("filter", obj(["enum": .array(CIFilterCatalogue.entries.keys.sorted().map { n(.string($0)) })])),
                ("name", obj(["type": .string("string")])),
            ])),
            ("patternProperties", ordered([("^input", obj(["anyOf": .array([n(ref("number")), n(ref("color")),
                                                                             n(obj(["type": .string("array"), "items": obj(["type": .string("number")])]))])])),
                                           ("^x-", obj([:]))])),
            ("additionalProperties", .bool(false)),
        ])
        let defs: [(String, JSONValue)] = [
            ("layer", layerSchema), ("animation", animationSchema), ("transaction", transaction), ("filter", filterSchema),
            ("textRun", textRun), ("font", font), ("emitterCell", emitterCellSchema),
            ("number", obj(["type": .string("number")])),
            ("timingNumber", obj(["anyOf": .array([n(obj(["type": .string("number")])), n(obj(["const": .string("infinity")]))])])),
            ("point", numbers(2, "[x, y]")), ("size", numbers(2, "[width, height]")), ("rect", numbers(4, "[x, y, width, height]")),
            ("transform", obj(["description": .string(SceneValueKind.transform.expected),
                               "anyOf": .array([n(numbers(16, "m11 … m44")), n(obj(["type": .string("object")])),
                                                n(obj(["type": .string("array"), "items": obj(["type": .string("object")])]))])])),
            ("color", obj(["description": .string(SceneValueKind.color.expected),
                           "anyOf": .array([n(obj(["type": .string("string")])),
                                            n(obj(["type": .string("array"), "items": obj(["type": .string("number")]), "minItems": .number(2), "maxItems": .number(4)])),
                                            n(obj(["type": .string("null")]))])])),
            ("path", obj(["description": .string(SceneValueKind.path.expected),
                          "anyOf": .array([n(obj(["type": .string("string")])), n(obj(["type": .string("array")])), n(obj(["type": .string("object")])),
                                           n(obj(["type": .string("null")]))])])),
            ("timingFunction", obj(["description": .string(SceneValueKind.timingFunction.expected),
                                    "anyOf": .array([n(obj(["enum": .array(SceneConstants.timingFunctionNames.map { n(.string($0)) })])),
                                                     n(numbers(4, "[c1x, c1y, c2x, c2y]")), n(obj(["type": .string("null")]))])])),
            ("mask", obj(["anyOf": .array([n(obj(["type": .string("number"), "minimum": .number(0), "maximum": .number(15)])),
                                           n(obj(["type": .string("array"), "items": obj(["type": .string("string")])]))])])),
        ]
        return ordered([
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("$id", .string("https://github.com/core-animation-linux/scene.schema.json")),
            ("title", .string("ca-scene document")),
            ("description", .string("A Core Animation scene for carender (docs/SCENE-FORMAT.md). Generated from the reader's tables by SceneSchema.jsonSchemaText(); do not edit by hand.")),
            ("type", .string("object")),
            ("required", .array(["format", "version", "size", "duration", "root"].map { n(.string($0)) })),
            ("properties", ordered([
                ("$schema", obj(["type": .string("string")])),
                ("format", obj(["const": .string(SceneFormat.name)])),
                ("version", obj(["type": .string("integer"), "minimum": .number(1)])),
                ("size", ref("size")),
                ("scale", obj(["type": .string("number"), "exclusiveMinimum": .number(0)])),
                ("duration", obj(["type": .string("number"), "minimum": .number(0)])),
                ("framesPerSecond", obj(["type": .string("number"), "exclusiveMinimum": .number(0)])),
                ("root", ref("layer")),
                ("transactions", obj(["type": .string("array"), "items": ref("transaction")])),
            ])),
            ("patternProperties", ordered([("^x-", obj([:]))])),
            ("additionalProperties", .bool(false)),
            ("$defs", ordered(defs)),
        ])
    }

    /// The schema of one property's value.
    static func valueSchema(_ p: SceneProperty) -> JSONValue {
        if infiniteTiming.contains(p.name) { return ref("timingNumber") }
        switch p.kind {
        case .number: return ref("number")
        case .bool: return obj(["type": .string("boolean")])
        case .point: return ref("point")
        case .size: return ref("size")
        case .rect: return ref("rect")
        case .transform: return ref("transform")
        case .color: return ref("color")
        case .path: return ref("path")
        case .string: return obj(["type": .array([n(.string("string")), n(.string("null"))])])
        case .constant(let names): return obj(["enum": .array(names.map { n(.string($0)) })])
        case .numberArray: return obj(["type": .array([n(.string("array")), n(.string("null"))]), "items": obj(["type": .string("number")])])
        case .colorArray: return obj(["type": .array([n(.string("array")), n(.string("null"))]), "items": ref("color")])
        case .image: return obj(["type": .array([n(.string("string")), n(.string("null"))]), "description": .string(SceneValueKind.image.expected)])
        case .cornerMask, .edgeMask: return ref("mask")
        case .timingFunction: return ref("timingFunction")
        }
    }

    private static func n(_ v: JSONValue) -> JSONNode { JSONNode(v) }
    private static func ref(_ name: String) -> JSONValue { .object([(key: "$ref", value: JSONNode(.string("#/$defs/\(name)")))]) }
    private static func ordered(_ members: [(String, JSONValue)]) -> JSONValue { .object(members.map { (key: $0.0, value: JSONNode($0.1)) }) }
    /// An object from a dictionary, members sorted by name (stable output).
    private static func obj(_ d: [String: JSONValue]) -> JSONValue { ordered(d.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }) }
    private static func numbers(_ count: Int, _ what: String) -> JSONValue {
        obj(["type": .string("array"), "items": obj(["type": .string("number")]), "minItems": .number(Double(count)),
             "maxItems": .number(Double(count)), "description": .string(what)])
    }
}

extension SceneFile {
    /// The JSON Schema of the scene format (`docs/scene.schema.json`), generated from the
    /// reader's tables. Extension beyond Apple's API.
    package static var jsonSchemaText: String { SceneSchema.jsonSchemaText() }
}
