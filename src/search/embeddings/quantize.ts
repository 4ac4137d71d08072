/**
 * Symmetric int8 quantisation: each vector keeps one float scale (max |x| / 127) and its values as
 * whole numbers in -127..127, a quarter of the float32 size. For unit vectors of a few hundred
 * dimensions the cosine error this brings is well under 0.01.
 */
export function quantize(vector: Float32Array, into: Int8Array, offset = 0): number {
  let largest = 0;
  for (let index = 0; index < vector.length; index++) largest = Math.max(largest, Math.abs(vector[index] ?? 0));
  const scale = largest / 127;
  const inverse = scale > 0 ? 1 / scale : 0;
  for (let index = 0; index < vector.length; index++) into[offset + index] = Math.round((vector[index] ?? 0) * inverse);
  return scale;
}

/** The float values back (`codes[offset..offset+length] * scale`). */
export function dequantize(codes: Int8Array, offset: number, length: number, scale: number): Float32Array {
  const vector = new Float32Array(length);
  for (let index = 0; index < length; index++) vector[index] = (codes[offset + index] ?? 0) * scale;
  return vector;
}
