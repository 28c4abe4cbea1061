// Particle pipeline (issue 21): one record per emission run of a CAEmitterLayer cell
// (ParticleRunInstance, bound with a divisor of at least the run's count, so every instance reads
// it); instance i is one particle, computed here as EmitterSimulation.born computes it on the
// CPU, from the same splitmix64 hash (EmitterHash), so these are the same particles. The quad
// and varyings are the image shader's particle path (image.vert, CA_PARTICLE), so image.frag
// draws the pixels. A particle the CPU would not draw (dead, zero size, not finite,
// transparent and not additive) is a degenerate quad.
layout(location = 0) in vec4 i_h0;
layout(location = 1) in vec4 i_h1;
layout(location = 2) in vec4 i_h2;
layout(location = 3) in vec4 i_uv;
layout(location = 4) in vec4 i_atlas;
layout(location = 5) in vec4 i_look;
layout(location = 6) in vec4 i_key;
layout(location = 7) in vec4 i_time;
layout(location = 8) in vec4 i_motion;
layout(location = 9) in vec4 i_motion2;
layout(location = 10) in vec4 i_scale;
layout(location = 11) in vec4 i_color;
layout(location = 12) in vec4 i_colorRange;
layout(location = 13) in vec4 i_colorSpeed;
layout(location = 14) in vec4 i_emitter;
layout(location = 15) in vec4 i_shape;

out vec4 v_localUV;
flat out vec4 v_tint;
flat out vec4 v_atlas;
flat out vec2 v_half;        // half size, in pixels (the point in v_localUV.xy likewise,
                             // relative to the centre: image.frag reads as few values as it can)
#ifdef CA_CLIP
flat out int v_clip;
#endif

// 64-bit unsigned arithmetic on (high, low) 32-bit halves: GLSL 3.30 has neither 64-bit
// integers nor umulExtended, so a 32 × 32 → 64 product is built from 16-bit partial products.
uvec2 add64(uvec2 a, uvec2 b) {
    uint lo = a.y + b.y;
    return uvec2(a.x + b.x + (lo < a.y ? 1u : 0u), lo);
}
uvec2 sub64(uvec2 a, uvec2 b) {
    return uvec2(a.x - b.x - (a.y < b.y ? 1u : 0u), a.y - b.y);
}
uvec2 mul32x32(uint a, uint b) {
    uint a0 = a & 0xFFFFu, a1 = a >> 16, b0 = b & 0xFFFFu, b1 = b >> 16;
    uint p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint mid = (p00 >> 16) + (p01 & 0xFFFFu) + (p10 & 0xFFFFu);
    return uvec2(p11 + (p01 >> 16) + (p10 >> 16) + (mid >> 16), (p00 & 0xFFFFu) | (mid << 16));
}
uvec2 mul64(uvec2 a, uvec2 b) {
    uvec2 p = mul32x32(a.y, b.y);
    p.x += a.x * b.y + a.y * b.x;   // the cross terms' low halves (mod 2^64)
    return p;
}
// x >> s for 0 < s < 32, then xor with x.
uvec2 xorShr64(uvec2 x, int s) {
    return x ^ uvec2(x.x >> s, (x.y >> s) | (x.x << (32 - s)));
}
// EmitterHash.mix: SplitMix64's finaliser.
uvec2 mix64(uvec2 x) {
    uvec2 z = add64(x, uvec2(0x9E3779B9u, 0x7F4A7C15u));
    z = mul64(xorShr64(z, 30), uvec2(0xBF58476Du, 0x1CE4E5B9u));
    z = mul64(xorShr64(z, 27), uvec2(0x94D049BBu, 0x133111EBu));
    return xorShr64(z, 31);
}
// slot × 0xD6E8FEB86659FD93 (mod 2^64) for the slots EmitterSimulation uses.
const uvec2 SLOT[13] = uvec2[13](
    uvec2(0x00000000u, 0x00000000u), uvec2(0xD6E8FEB8u, 0x6659FD93u), uvec2(0xADD1FD70u, 0xCCB3FB26u),
    uvec2(0x84BAFC29u, 0x330DF8B9u), uvec2(0x5BA3FAE1u, 0x9967F64Cu), uvec2(0x328CF999u, 0xFFC1F3DFu),
    uvec2(0x0975F852u, 0x661BF172u), uvec2(0xE05EF70Au, 0xCC75EF05u), uvec2(0xB747F5C3u, 0x32CFEC98u),
    uvec2(0x8E30F47Bu, 0x9929EA2Bu), uvec2(0x6519F333u, 0xFF83E7BEu), uvec2(0x3C02F1ECu, 0x65DDE551u),
    uvec2(0x12EBF0A4u, 0xCC37E2E4u));
// EmitterHash.unit: [0, 1) from the hash's top bits (24 of them: a float's precision).
float unit01(uvec2 key, int slot) {
    return float(mix64(key ^ SLOT[slot]).x >> 8) * (1.0 / 16777216.0);
}
float signed11(uvec2 key, int slot) { return unit01(key, slot) * 2.0 - 1.0; }

// EmitterSimulation.perimeterPoint.
vec3 perimeterPoint(float u, float w, float h) {
    float total = 2.0 * (abs(w) + abs(h));
    if (!(total > 0.0)) return vec3(0.0);
    float s = u * total;
    if (s < abs(w)) return vec3(s - w / 2.0, -h / 2.0, 0.0);
    s -= abs(w);
    if (s < abs(w)) return vec3(s - w / 2.0, h / 2.0, 0.0);
    s -= abs(w);
    if (s < abs(h)) return vec3(-w / 2.0, s - h / 2.0, 0.0);
    s -= abs(h);
    return vec3(w / 2.0, s - h / 2.0, 0.0);
}

// EmitterSimulation.emitterPoint: shape code × 4 + mode code in i_shape.w (EmitterRun).
vec3 emitterPoint(uvec2 key) {
    vec3 c = i_emitter.xyz;
    float w = i_shape.x, h = i_shape.y, d = i_shape.z;
    int code = int(i_shape.w + 0.5), shape = code / 4, mode = code - shape * 4;
    float u = unit01(key, 10), v = unit01(key, 11), q = unit01(key, 12);
    const float PI = 3.14159265358979;
    if (shape == 1) {   // line
        if (mode == 0) return c + vec3(u < 0.5 ? -w / 2.0 : w / 2.0, 0.0, 0.0);
        return c + vec3((u - 0.5) * w, 0.0, 0.0);
    }
    if (shape == 2) {   // rectangle
        if (mode == 0) return c + vec3(u < 0.5 ? -w / 2.0 : w / 2.0, v < 0.5 ? -h / 2.0 : h / 2.0, 0.0);
        if (mode == 1) return c + perimeterPoint(u, w, h);
        return c + vec3((u - 0.5) * w, (v - 0.5) * h, 0.0);
    }
    if (shape == 3) {   // cuboid
        if (mode == 0) return c + vec3(u < 0.5 ? -w / 2.0 : w / 2.0, v < 0.5 ? -h / 2.0 : h / 2.0, q < 0.5 ? -d / 2.0 : d / 2.0);
        if (mode == 1) {
            int e = min(int(q * 12.0), 11);
            float s1 = (e & 1) == 0 ? -0.5 : 0.5, s2 = (e & 2) == 0 ? -0.5 : 0.5;
            if (e / 4 == 0) return c + vec3((u - 0.5) * w, s1 * h, s2 * d);
            if (e / 4 == 1) return c + vec3(s1 * w, (u - 0.5) * h, s2 * d);
            return c + vec3(s1 * w, s2 * h, (u - 0.5) * d);
        }
        if (mode == 2) {
            int f = min(int(q * 6.0), 5);
            float side = (f & 1) == 0 ? -0.5 : 0.5;
            if (f / 2 == 0) return c + vec3(side * w, (u - 0.5) * h, (v - 0.5) * d);
            if (f / 2 == 1) return c + vec3((u - 0.5) * w, side * h, (v - 0.5) * d);
            return c + vec3((u - 0.5) * w, (v - 0.5) * h, side * d);
        }
        return c + vec3((u - 0.5) * w, (v - 0.5) * h, (q - 0.5) * d);
    }
    if (shape == 4) {   // circle, radius emitterSize.width
        float a = u * 2.0 * PI;
        if (mode == 0) return c;
        if (mode == 1) return c + vec3(cos(a) * w, sin(a) * w, 0.0);
        float r = w * sqrt(v);
        return c + vec3(cos(a) * r, sin(a) * r, 0.0);
    }
    if (shape == 5) {   // sphere, radius emitterSize.width
        float a = u * 2.0 * PI, z = 2.0 * v - 1.0, ring = sqrt(max(1.0 - z * z, 0.0));
        vec3 onSurface = vec3(cos(a) * ring, sin(a) * ring, z);
        if (mode == 0) return c;
        if (mode == 1 || mode == 2) return c + onSurface * w;
        return c + onSurface * (w * pow(q, 1.0 / 3.0));
    }
    return c;
}

bool finite(float x) { return !isnan(x) && !isinf(x); }

void main() {
    // Nothing drawn: all four corners on one point.
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    v_localUV = vec4(0.0);
    v_tint = vec4(0.0);
    v_atlas = i_atlas;
    v_half = vec2(0.0);
#ifdef CA_CLIP
    v_clip = int(i_h1.w + 0.5);
#endif
    int flags = int(i_look.w + 0.5);
    bool additive = (flags & 1) != 0;
    uvec2 first = uvec2((uint(i_key.x) << 16) | uint(i_key.y), (uint(i_key.z) << 16) | uint(i_key.w));
    uvec2 n = uvec2(0u, uint(gl_InstanceID));
    uvec2 key = mix64((flags & 2) != 0 ? add64(first, n) : sub64(first, n));

    float life = i_time.z + i_time.w * signed11(key, 0);
    float age = i_time.x + float(gl_InstanceID) * i_time.y;
    if (!(life > 0.0) || !(age < life)) return;
    vec3 p0 = emitterPoint(key);
    float speed = i_motion.x + i_motion.y * signed11(key, 1);
    float longitude = i_motion.z + i_motion.w * (unit01(key, 2) - 0.5);
    float latitude = i_motion2.x;
    vec3 dir = vec3(cos(latitude) * cos(longitude), cos(latitude) * sin(longitude), sin(latitude));
    vec3 p = p0 + dir * (speed * age) + i_motion2.yzw * (0.5 * age * age);
    float s = max(i_scale.x + i_scale.y * signed11(key, 3) + i_scale.z * age, 0.0);
    float spin = i_scale.w + i_emitter.w * signed11(key, 4);
    vec4 c = i_color + i_colorRange * vec4(signed11(key, 5), signed11(key, 6), signed11(key, 7), signed11(key, 8))
           + i_colorSpeed * age;
    c = clamp(c, 0.0, 1.0);
    if (!finite(p.x) || !finite(p.y) || !finite(p.z) || !finite(s)) return;
    float w = i_look.x * s, ht = i_look.y * s;
    if (!(w > 0.0) || !(ht > 0.0)) return;
    float a = c.a * i_look.z;
    vec4 tint = vec4(c.rgb * a, a);
    if (!(tint.a > 0.0) && !additive) return;

    // The particle's plane: the layer's turned by its angle about its centre, moved there (row
    // vectors: local point · A · H, as ParticleEmitter builds it).
    float angle = spin * age, cs = cos(angle), sn = sin(angle);
    vec4 h0 = vec4(cs * i_h0.xyz + sn * i_h1.xyz, 0.0);
    vec4 h1 = vec4(-sn * i_h0.xyz + cs * i_h1.xyz, 0.0);
    vec4 h2 = vec4(p.x * i_h0.xyz + p.y * i_h1.xyz + i_h2.xyz, 0.0);
    if (!finite(h2.x) || !finite(h2.y) || !finite(h2.z)) return;

    // image.vert's particle path from here.
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    float scale = planeScale(h0, h1, h2);
    float m = 0.5 / max(scale, 1e-6);   // a similarity's AA fringe (box.vert)
    vec2 lo = vec2(-w / 2.0, -ht / 2.0), size = vec2(w, ht), hi = lo + size;
    vec2 q = mix(lo - m, hi + m, corner);
    gl_Position = toClip(q.x * h0.xyz + q.y * h1.xyz + h2.xyz);
    vec2 t = (q - lo) / max(size, vec2(1e-9));
    // lo + size / 2 is the origin: the particle is centred there.
    v_localUV = vec4(q * scale, mix(i_uv.xy, i_uv.zw, t));
    v_tint = tint;
    v_half = 0.5 * size * scale;
}
