//! Decoding (bounded) and rendering of images: an image is decoded only when its header's
//! size is within [`MAX_PIXELS`] and its decoder's allocations within [`MAX_ALLOC`], so that
//! a decompression bomb is refused before any pixel is decoded; a variation's filters are
//! then applied in order (resizing with `fast_image_resize`'s SIMD Lanczos-3) and the result
//! encoded. Everything here is synchronous and CPU-bound: callers run it off the request
//! threads (`super::Images`).

use super::config::{Format, Variation};
use super::geometry::Step;
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

/// An image decoded, with its format and its EXIF orientation (not applied yet).
pub struct Decoded {
    pub image: DynamicImage,
    pub format: Format,
    orientation: image::metadata::Orientation,
}

/// Decodes `bytes` within the limits.
pub fn decode(bytes: &[u8]) -> Result<Decoded, Refused> {
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
    let image = DynamicImage::from_decoder(decoder).map_err(|e| match e {
        image::ImageError::Limits(_) => Refused::TooLarge { width, height },
        e => corrupt(e),
    })?;
    Ok(Decoded {
        image,
        format,
        orientation,
    })
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

/// Renders `variation` of the image `bytes`.
pub fn render(bytes: &[u8], variation: &Variation) -> Result<Rendered, Refused> {
    let Decoded {
        mut image,
        format,
        orientation,
    } = decode(bytes)?;
    image = eight_bit(image);
    for filter in &variation.filters {
        match filter.step(image.width(), image.height()) {
            Step::Keep => {}
            Step::Orient => image.apply_orientation(orientation),
            Step::Resize(w, h) => image = resize(&image, w, h),
            Step::Crop { x, y, w, h } => image = image.crop_imm(x, y, w, h),
        }
    }
    let format = variation.format.unwrap_or(format);
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
        let crc = crc32(&bytes[12..29]);
        bytes[29..33].copy_from_slice(&crc.to_be_bytes());
        bytes
    }

    fn crc32(data: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in data {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xedb8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
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
