//! Decoding (bounded) and rendering of images: an image is decoded only when its header's
//! size is within [`MAX_PIXELS`] and its decoder's allocations within [`MAX_ALLOC`], so that
//! a decompression bomb is refused before any pixel is decoded; a variation's filters are
//! then applied in order (resizing with `fast_image_resize`'s SIMD Lanczos-3) and the result
//! encoded. Everything here is synchronous and CPU-bound: callers run it off the request
//! threads (`super::Images`).

use super::config::{Format, Variation};
use super::geometry::{Plan, Step};
use image::{DynamicImage, ImageDecoder, ImageFormat};

/// The most pixels an image may have to be decoded (8000 × 6250).
pub const MAX_PIXELS: u64 = 50_000_000;

/// The most bytes a decoder may allocate.
const MAX_ALLOC: u64 = 512 * 1024 * 1024;

/// Why an image is not decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// The header announces more than [`MAX_PIXELS`] pixels (a decompression bomb, or just too
    /// large to render).
    TooLarge { width: u32, height: u32 },
    /// Not a JPEG, PNG, GIF or WebP image, or one whose data is broken.
    Corrupt(String),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::TooLarge { width, height } => write!(
                f,
                "The image is too large to be processed: {width} x {height} pixels \
                 (at most {MAX_PIXELS} pixels)"
            ),
            Refused::Corrupt(why) => write!(f, "The image cannot be read: {why}"),
        }
    }
}

/// An image decoded (its EXIF orientation not applied), with its format.
pub struct Decoded {
    pub image: DynamicImage,
    pub format: Format,
}

/// Decodes `bytes` within the limits.
pub fn decode(bytes: &[u8]) -> Result<Decoded, Refused> {
    let (header, decoder) = open(bytes)?;
    let (width, height) = (header.width, header.height);
    let image = DynamicImage::from_decoder(decoder).map_err(|e| match e {
        image::ImageError::Limits(_) => Refused::TooLarge { width, height },
        e => Refused::Corrupt(e.to_string()),
    })?;
    Ok(Decoded {
        image,
        format: header.format,
    })
}

/// The header of `bytes` (format, size within [`MAX_PIXELS`], orientation) and the decoder
/// that would decode its pixels within [`MAX_ALLOC`].
fn open(bytes: &[u8]) -> Result<(Header, impl ImageDecoder + '_), Refused> {
    let corrupt = |e: image::ImageError| Refused::Corrupt(e.to_string());
    let mut reader = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| Refused::Corrupt(e.to_string()))?;
    let format = match reader.format() {
        Some(ImageFormat::Jpeg) => Format::Jpeg,
        Some(ImageFormat::Png) => Format::Png,
        Some(ImageFormat::Gif) => Format::Gif,
        Some(ImageFormat::WebP) => Format::Webp,
        _ => {
            return Err(Refused::Corrupt(
                "not a JPEG, PNG, GIF or WebP image".into(),
            ));
        }
    };
    let mut limits = image::Limits::default();
    limits.max_alloc = Some(MAX_ALLOC);
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(corrupt)?;
    let (width, height) = decoder.dimensions();
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(Refused::TooLarge { width, height });
    }
    if width == 0 || height == 0 {
        return Err(Refused::Corrupt("the image has no pixel".into()));
    }
    let orientation = decoder
        .orientation()
        .unwrap_or(image::metadata::Orientation::NoTransforms);
    let header = Header {
        format,
        width,
        height,
        orientation,
    };
    Ok((header, decoder))
}

/// What an image's header says.
struct Header {
    format: Format,
    width: u32,
    height: u32,
    orientation: image::metadata::Orientation,
}

/// Whether applying `o` swaps width and height.
fn turns(o: image::metadata::Orientation) -> bool {
    use image::metadata::Orientation::*;
    matches!(o, Rotate90 | Rotate270 | Rotate90FlipH | Rotate270FlipH)
}

/// The JPEG `bytes` decoded at the least of 1/8, 1/4 and 1/2 of its `width` × `height`
/// (DCT scaling: most of the decoding skipped) that is still at least `at` in both axes;
/// `None` when no such scale is below 1, or the decoder cannot (left to the whole decode,
/// which says why).
fn jpeg_at_scale(bytes: &[u8], width: u32, height: u32, at: (u32, u32)) -> Option<DynamicImage> {
    let scaled = |len: u32, eighths: u32| (len * eighths).div_ceil(8);
    let eighths = [1, 2, 4]
        .into_iter()
        .find(|&e| scaled(width, e) >= at.0 && scaled(height, e) >= at.1)?;
    let (w, h) = (scaled(width, eighths), scaled(height, eighths));
    let mut decoder = jpeg_decoder::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_max_decoding_buffer_size(MAX_ALLOC as usize);
    let (sw, sh) = decoder
        .scale(u16::try_from(w).ok()?, u16::try_from(h).ok()?)
        .ok()?;
    if (u32::from(sw), u32::from(sh)) != (w, h) {
        return None;
    }
    // CMYK and 16-bit images are left to the whole decode, before any pixel is decoded here.
    let format = decoder.info()?.pixel_format;
    if !matches!(
        format,
        jpeg_decoder::PixelFormat::RGB24 | jpeg_decoder::PixelFormat::L8
    ) {
        return None;
    }
    let pixels = decoder.decode().ok()?;
    match format {
        jpeg_decoder::PixelFormat::L8 => {
            image::GrayImage::from_raw(w, h, pixels).map(DynamicImage::ImageLuma8)
        }
        _ => image::RgbImage::from_raw(w, h, pixels).map(DynamicImage::ImageRgb8),
    }
}

/// The format and size a file's first bytes announce (no pixel decoded).
pub fn header(head: &[u8]) -> Option<(Format, u32, u32)> {
    let reader = image::ImageReader::new(std::io::Cursor::new(head))
        .with_guessed_format()
        .ok()?;
    let format = match reader.format()? {
        ImageFormat::Jpeg => Format::Jpeg,
        ImageFormat::Png => Format::Png,
        ImageFormat::Gif => Format::Gif,
        ImageFormat::WebP => Format::Webp,
        _ => return None,
    };
    let (w, h) = reader.into_dimensions().ok()?;
    Some((format, w, h))
}

/// A rendered variation.
#[derive(Debug, Clone)]
pub struct Rendered {
    pub bytes: Vec<u8>,
    pub width: u32,
    pub height: u32,
    pub format: Format,
}

/// Renders `variation` of the image `bytes`. Its steps are planned on the header's size; a
/// JPEG whose first step makes it at most half as large is decoded at a reduced scale.
pub fn render(bytes: &[u8], variation: &Variation) -> Result<Rendered, Refused> {
    let (header, _) = open(bytes)?;
    let orientation = header.orientation;
    let plan = Plan::new(
        &variation.filters,
        header.width,
        header.height,
        turns(orientation),
    );
    let smaller = match (header.format, plan.decode_at) {
        (Format::Jpeg, Some(at)) => jpeg_at_scale(bytes, header.width, header.height, at),
        _ => None,
    };
    let mut image = match smaller {
        Some(image) => image,
        None => eight_bit(decode(bytes)?.image),
    };
    for step in plan.steps {
        match step {
            Step::Keep => {}
            Step::Orient => image.apply_orientation(orientation),
            Step::Resize(w, h) => image = resize(&image, w, h),
            Step::Crop { x, y, w, h } => image = image.crop_imm(x, y, w, h),
        }
    }
    let format = variation.format.unwrap_or(header.format);
    let bytes = encode(&image, format, variation.quality)
        .map_err(|e| Refused::Corrupt(format!("the variation could not be encoded: {e}")))?;
    Ok(Rendered {
        bytes,
        width: image.width(),
        height: image.height(),
        format,
    })
}

/// 8 bits a channel, the depth every encoder here takes.
fn eight_bit(image: DynamicImage) -> DynamicImage {
    match image {
        DynamicImage::ImageLuma8(_)
        | DynamicImage::ImageLumaA8(_)
        | DynamicImage::ImageRgb8(_)
        | DynamicImage::ImageRgba8(_) => image,
        i if i.color().has_alpha() => DynamicImage::ImageRgba8(i.to_rgba8()),
        i => DynamicImage::ImageRgb8(i.to_rgb8()),
    }
}

fn resize(image: &DynamicImage, w: u32, h: u32) -> DynamicImage {
    let mut out = DynamicImage::new(w, h, image.color());
    let resized = fast_image_resize::Resizer::new().resize(image, &mut out, None);
    match resized {
        Ok(()) => out,
        // Not expected for 8-bit images; image's own (slower) filter then.
        Err(_) => image.resize_exact(w, h, image::imageops::FilterType::Lanczos3),
    }
}

fn encode(image: &DynamicImage, format: Format, quality: u8) -> image::ImageResult<Vec<u8>> {
    let mut out = Vec::new();
    let alpha = image.color().has_alpha();
    match format {
        Format::Jpeg => {
            let rgb = match image {
                DynamicImage::ImageLuma8(_) => image.clone(),
                _ => DynamicImage::ImageRgb8(image.to_rgb8()),
            };
            let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, quality);
            rgb.write_with_encoder(encoder)?;
        }
        Format::Png => {
            image.write_with_encoder(image::codecs::png::PngEncoder::new(&mut out))?;
        }
        Format::Webp => {
            let encoder = image::codecs::webp::WebPEncoder::new_lossless(&mut out);
            match image {
                DynamicImage::ImageRgb8(_) | DynamicImage::ImageRgba8(_) => {
                    image.write_with_encoder(encoder)?
                }
                _ if alpha => {
                    DynamicImage::ImageRgba8(image.to_rgba8()).write_with_encoder(encoder)?
                }
                _ => DynamicImage::ImageRgb8(image.to_rgb8()).write_with_encoder(encoder)?,
            }
        }
        Format::Gif => {
            let encoder = image::codecs::gif::GifEncoder::new(&mut out);
            DynamicImage::ImageRgba8(image.to_rgba8()).write_with_encoder(encoder)?;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::images::Variations;

    fn png(w: u32, h: u32) -> Vec<u8> {
        let img = image::RgbImage::from_fn(w, h, |x, y| image::Rgb([x as u8, y as u8, 7]));
        let mut out = Vec::new();
        DynamicImage::ImageRgb8(img)
            .write_with_encoder(image::codecs::png::PngEncoder::new(&mut out))
            .unwrap();
        out
    }

    /// A PNG whose header announces `w` × `h` pixels, with a checksum that holds.
    pub(crate) fn bomb(w: u32, h: u32) -> Vec<u8> {
        let mut bytes = png(1, 1);
        bytes[16..20].copy_from_slice(&w.to_be_bytes());
        bytes[20..24].copy_from_slice(&h.to_be_bytes());
        let crc = crc32fast::hash(&bytes[12..29]);
        bytes[29..33].copy_from_slice(&crc.to_be_bytes());
        bytes
    }

    #[test]
    fn variations_are_rendered_at_their_size_and_format() {
        let v = Variations::with(Some("w: {reference: small, format: webp}")).unwrap();
        let r = render(&png(800, 400), v.get("small").unwrap()).unwrap();
        assert_eq!((r.width, r.height, r.format), (100, 50, Format::Png));
        let decoded = decode(&r.bytes).unwrap();
        assert_eq!(decoded.image.width(), 100);
        assert_eq!(header(&r.bytes), Some((Format::Png, 100, 50)));
        assert_eq!(header(b"GIF"), None);
        let w = render(&png(800, 400), v.get("w").unwrap()).unwrap();
        assert_eq!((w.width, w.height, w.format), (100, 50, Format::Webp));
        assert_eq!(decode(&w.bytes).unwrap().format, Format::Webp);
    }

    fn jpeg(w: u32, h: u32) -> Vec<u8> {
        let img = image::RgbImage::from_fn(w, h, |x, y| image::Rgb([x as u8, y as u8, 7]));
        let mut out = Vec::new();
        DynamicImage::ImageRgb8(img)
            .write_with_encoder(image::codecs::jpeg::JpegEncoder::new(&mut out))
            .unwrap();
        out
    }

    #[test]
    fn large_jpegs_are_decoded_at_a_reduced_scale() {
        let bytes = jpeg(1600, 1200);
        // 1/8 would be 200 × 150: enough for 150 × 100, not for 300 × 200 (1/4: 400 × 300).
        let eighth = jpeg_at_scale(&bytes, 1600, 1200, (150, 100)).unwrap();
        assert_eq!((eighth.width(), eighth.height()), (200, 150));
        let quarter = jpeg_at_scale(&bytes, 1600, 1200, (300, 200)).unwrap();
        assert_eq!((quarter.width(), quarter.height()), (400, 300));
        // Nothing below the whole size is enough.
        assert!(jpeg_at_scale(&bytes, 1600, 1200, (900, 100)).is_none());
        // Grey stays grey.
        let mut grey = Vec::new();
        DynamicImage::ImageLuma8(image::GrayImage::from_fn(800, 600, |x, _| {
            image::Luma([x as u8])
        }))
        .write_with_encoder(image::codecs::jpeg::JpegEncoder::new(&mut grey))
        .unwrap();
        let small = jpeg_at_scale(&grey, 800, 600, (100, 75)).unwrap();
        assert!(matches!(small, DynamicImage::ImageLuma8(_)));
        assert_eq!((small.width(), small.height()), (100, 75));
        // Rendered at the reference's sizes all the same.
        let v = Variations::defaults();
        for (name, size) in [("small", (100, 75)), ("reference", (600, 450))] {
            let r = render(&bytes, v.get(name).unwrap()).unwrap();
            assert_eq!((r.width, r.height), size, "{name}");
            assert_eq!(header(&r.bytes), Some((Format::Jpeg, size.0, size.1)));
        }
    }

    #[test]
    fn bombs_and_broken_files_are_refused() {
        assert_eq!(
            decode(&bomb(100_000, 100_000)).err(),
            Some(Refused::TooLarge {
                width: 100_000,
                height: 100_000
            })
        );
        let mut cut = png(50, 50);
        cut.truncate(cut.len() / 2);
        assert!(matches!(decode(&cut).err(), Some(Refused::Corrupt(_))));
        assert!(matches!(decode(b"hello").err(), Some(Refused::Corrupt(_))));
    }
}
