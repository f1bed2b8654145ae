// The icon browsers ask every site for (/favicon.ico): a 16×16 icon made here, so a browser's request gets an
// icon rather than a 404 in the logs, and nothing has to be built or shipped for it. The picture: a dark tile
// crossed by a light "scrub line".

const SIZE = 16;
const DARK = [0x2b, 0x2b, 0x1e, 0xff]; // BGRA of #1e2b2b
const LIGHT = [0xd8, 0xe6, 0x3c, 0xff]; // BGRA of #3ce6d8

/** A Windows icon file (ICO) holding one 32-bit 16×16 bitmap. */
function makeIcon(): Buffer {
  const pixels = Buffer.alloc(SIZE * SIZE * 4);
  for (let row = 0; row < SIZE; row++) {
    // Bitmaps run bottom-up: row 0 is the bottom line of the picture.
    const y = SIZE - 1 - row;
    for (let x = 0; x < SIZE; x++) {
      const inLine = y >= 7 && y <= 8 && x >= 2 && x <= 13;
      const colour = inLine ? LIGHT : DARK;
      pixels.set(colour, (row * SIZE + x) * 4);
    }
  }
  const mask = Buffer.alloc(SIZE * 4); // the AND mask, 1 bit a pixel padded to 32 bits a row: all opaque
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0); // BITMAPINFOHEADER size
  header.writeInt32LE(SIZE, 4);
  header.writeInt32LE(SIZE * 2, 8); // height counts the picture and its mask
  header.writeUInt16LE(1, 12); // planes
  header.writeUInt16LE(32, 14); // bits per pixel
  header.writeUInt32LE(pixels.length + mask.length, 20);
  const image = Buffer.concat([header, pixels, mask]);
  const dir = Buffer.alloc(6 + 16);
  dir.writeUInt16LE(0, 0);
  dir.writeUInt16LE(1, 2); // type: icon
  dir.writeUInt16LE(1, 4); // one image
  dir.writeUInt8(SIZE, 6);
  dir.writeUInt8(SIZE, 7);
  dir.writeUInt16LE(1, 10); // planes
  dir.writeUInt16LE(32, 12); // bits per pixel
  dir.writeUInt32LE(image.length, 14);
  dir.writeUInt32LE(dir.length, 18); // offset of the image
  return Buffer.concat([dir, image]);
}

export const FAVICON = makeIcon();
