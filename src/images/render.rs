//! Decoding (bounded) and rendering of images: an image is decoded only when its header's
//! size is within [`MAX_PIXELS`] and its decoder's allocations within [`MAX_ALLOC`], so that
//! a decompression bomb is refused before any pixel is decoded; a variation's filters are
//! then applied in order (resizing with `fast_image_resize`'s SIMD Lanczos-3) and the result
//! encoded. Everything here is synchronous and CPU-bound: callers run it off the request
//! threads (`super::Images`).
//!
//! JPEGs are decoded by libjpeg-turbo (mozjpeg's copy of it, compiled into the binary by the
//! `mozjpeg-sys` crate; its errors unwind out of its C code and are caught, never an abort),
//! at 1/8, 1/4 or 1/2 of their size when that is enough (DCT scaling: most of the decoding
//! skipped; the whole data is read all the same), with at most [`SCAN_LIMIT`] scans. It is
//! given only grey, RGB and YCbCr JPEGs (one or three components), whose buffers are at most
//! 6 bytes a pixel (a progressive JPEG's coefficients kept whole), within [`MAX_ALLOC`] at
//! [`MAX_PIXELS`]. CMYK and YCCK JPEGs, those whose header it cannot read, and those it
//! decodes with an error or a warning (data cut short, extraneous bytes) are decoded whole by
//! `image`'s decoder, which accepts or refuses them as it did before libjpeg-turbo:
//! libjpeg-turbo makes the clean JPEGs faster and refuses nothing `image` accepts. Every
//! other format is decoded by `image`.

use super::config::{Format, Variation};
use super::geometry::{Plan, Step};
use image::{DynamicImage, ImageDecoder, ImageFormat};

/// The most pixels an image may have to be decoded (8000 × 6250).
pub const MAX_PIXELS: u64 = 50_000_000;

/// The most bytes a decoder may allocate.
const MAX_ALLOC: u64 = 512 * 1024 * 1024;

/// The most scans of a JPEG read (libjpeg-turbo's own advice against the progressive JPEGs
/// made of many scans that each take a pass over the whole image).
const SCAN_LIMIT: u32 = 500;

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

/// An image decoded whole, 8 bits a channel (its EXIF orientation not applied), with its
/// format.
#[cfg(test)]
struct Decoded {
    pub image: DynamicImage,
    pub format: Format,
}

/// Decodes `bytes` whole within the limits (the tests' look at what was rendered).
#[cfg(test)]
fn decode(bytes: &[u8]) -> Result<Decoded, Refused> {
    let (header, decoder) = open(bytes)?;
    let image = pixels(bytes, &header, decoder, None)?;
    Ok(Decoded {
        image,
        format: header.format,
    })
}

/// The width and height of the image `bytes` (as stored, before any orientation), once its
/// data is proved whole: decoded within the limits, a JPEG at 1/8 of its size (every bit of
/// its data is read all the same, so that data cut short or broken is refused as by a whole
/// decode), other formats whole. What is accepted here can be rendered.
pub fn check(bytes: &[u8]) -> Result<(u32, u32), Refused> {
    let (header, decoder) = open(bytes)?;
    pixels(bytes, &header, decoder, Some((1, 1)))?;
    Ok((header.width, header.height))
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

/// The pixels of `bytes`, 8 bits a channel: a JPEG at the least of 1/8, 1/4, 1/2 and 1 of
/// its size that is still at least `at` in both axes (whole without `at`), when
/// libjpeg-turbo reads it without a warning; else whole, by `decoder`, which accepts or
/// refuses it as it would have without libjpeg-turbo.
fn pixels(
    bytes: &[u8],
    header: &Header,
    decoder: impl ImageDecoder,
    at: Option<(u32, u32)>,
) -> Result<DynamicImage, Refused> {
    let turbo = match header.format {
        Format::Jpeg => jpeg(bytes, header, at),
        _ => Err(Turbo::NotGiven),
    };
    let why = match turbo {
        Ok(image) => return Ok(image),
        Err(Turbo::TooManyScans) => {
            return Err(Refused::Corrupt(format!(
                "the JPEG has more than {SCAN_LIMIT} scans"
            )));
        }
        Err(Turbo::NotGiven) => None,
        Err(Turbo::Said(why)) => Some(why),
    };
    let (width, height) = (header.width, header.height);
    let image = DynamicImage::from_decoder(decoder).map_err(|e| match e {
        image::ImageError::Limits(_) => Refused::TooLarge { width, height },
        e => Refused::Corrupt(why.clone().unwrap_or_else(|| e.to_string())),
    })?;
    if let Some(why) = why {
        tracing::debug!("a JPEG libjpeg-turbo refused ({why}) was decoded by image");
    }
    Ok(eight_bit(image))
}

/// Why libjpeg-turbo gave no pixels.
#[derive(Debug, PartialEq)]
enum Turbo {
    /// Not a JPEG it is given (CMYK, YCCK, or a header it cannot read).
    NotGiven,
    /// It said an error or a warning (data cut short, extraneous bytes, ...).
    Said(String),
    /// It reached a scan beyond [`SCAN_LIMIT`]: the JPEG is refused, not given to `image`,
    /// whose decoder has no such limit.
    TooManyScans,
}

/// The JPEG `bytes` decoded by libjpeg-turbo as [`pixels`] says, or why not. Its errors and
/// warnings unwind out of its C code ([`libjpeg_errors`]) and are caught here: a bad file
/// never takes the process down.
fn jpeg(bytes: &[u8], header: &Header, at: Option<(u32, u32)>) -> Result<DynamicImage, Turbo> {
    use mozjpeg::{ColorSpace, Decompress};
    use std::panic::{AssertUnwindSafe, catch_unwind};
    let opened = catch_unwind(|| {
        Decompress::builder()
            .with_err(libjpeg_errors())
            .from_mem(bytes)
    });
    let Ok(Ok(mut decompress)) = opened else {
        return Err(Turbo::NotGiven);
    };
    let grey = match decompress.color_space() {
        ColorSpace::JCS_GRAYSCALE => true,
        ColorSpace::JCS_RGB | ColorSpace::JCS_YCbCr => false,
        _ => return Err(Turbo::NotGiven),
    };
    // The size `open` bounded is the size decoded.
    if decompress.size() != (header.width as usize, header.height as usize) {
        return Err(Turbo::NotGiven);
    }
    let (width, height) = decompress.size();
    let scaled = |len: usize, eighths: usize| (len * eighths).div_ceil(8);
    let eighths = match at {
        Some((w, h)) => [1, 2, 4]
            .into_iter()
            .find(|&e| scaled(width, e) >= w as usize && scaled(height, e) >= h as usize)
            .unwrap_or(8),
        None => 8,
    };
    decompress.scale(eighths as u8);
    // The decompressor (libjpeg's memory) is dropped when it unwinds, as when it returns.
    let decoded = catch_unwind(AssertUnwindSafe(move || {
        let started = if grey {
            decompress.grayscale()
        } else {
            decompress.rgb()
        };
        let mut started = started.map_err(|e| Turbo::Said(e.to_string()))?;
        let (w, h) = (started.width(), started.height());
        if (w, h) != (scaled(width, eighths), scaled(height, eighths)) {
            return Err(Turbo::Said(
                "the decoded JPEG is not of its size".to_owned(),
            ));
        }
        let mut pixels = vec![0u8; w * h * if grey { 1 } else { 3 }];
        started
            .read_scanlines_into(&mut pixels)
            .map_err(|e| Turbo::Said(e.to_string()))?;
        started.finish().map_err(|e| Turbo::Said(e.to_string()))?;
        Ok((w as u32, h as u32, pixels))
    }));
    let (w, h, pixels) = match decoded {
        Ok(decoded) => decoded?,
        Err(unwound) => return Err(libjpeg_said(unwound)),
    };
    let image = if grey {
        image::GrayImage::from_raw(w, h, pixels).map(DynamicImage::ImageLuma8)
    } else {
        image::RgbImage::from_raw(w, h, pixels).map(DynamicImage::ImageRgb8)
    };
    image.ok_or_else(|| Turbo::Said("the decoded JPEG is not of its size".into()))
}

/// libjpeg's error manager for [`jpeg`]: an error, a warning (libjpeg-turbo's
/// "stop on warning"), or a scan beyond [`SCAN_LIMIT`] unwinds out of the C code (compiled
/// with `-fexceptions` by mozjpeg-sys's `unwinding`) with its message; other messages are
/// dropped. Unsafe code (one of the workspace's exceptions, Cargo.toml): libjpeg's error
/// manager is a C interface.
#[allow(unsafe_code)]
fn libjpeg_errors() -> mozjpeg_sys::jpeg_error_mgr {
    use mozjpeg_sys::{jpeg_common_struct, jpeg_decompress_struct};
    use std::os::raw::c_int;

    /// libjpeg's message for its last error or warning.
    fn message(cinfo: &mut jpeg_common_struct) -> String {
        let mut buffer = [0u8; 80];
        // SAFETY: `err` is the error manager libjpeg calls us from; `format_message` writes at
        // most 80 bytes, NUL-terminated, into its buffer (which mozjpeg-sys declares `&`, not
        // `&mut`: the function is given its true type, as mozjpeg's own error manager does).
        unsafe {
            if let Some(format) = (*cinfo.err).format_message {
                let format = std::mem::transmute::<
                    unsafe extern "C-unwind" fn(&mut jpeg_common_struct, &[u8; 80]),
                    unsafe extern "C-unwind" fn(&mut jpeg_common_struct, &mut [u8; 80]),
                >(format);
                format(cinfo, &mut buffer);
            }
        }
        let len = buffer.iter().position(|&b| b == 0).unwrap_or(buffer.len());
        String::from_utf8_lossy(&buffer[..len]).into_owned()
    }

    unsafe extern "C-unwind" fn error_exit(cinfo: &mut jpeg_common_struct) {
        // Not a panic: no panic hook, no log of a bug.
        std::panic::resume_unwind(Box::new(message(cinfo)));
    }

    unsafe extern "C-unwind" fn emit_message(cinfo: &mut jpeg_common_struct, level: c_int) {
        if level < 0 {
            std::panic::resume_unwind(Box::new(message(cinfo)));
        }
        // Traced at each scan's start (SOS), before it is counted.
        // SAFETY: `msg_code` is the message being emitted; only a decompressor is given this
        // error manager, and `cinfo` is the start of its `jpeg_decompress_struct`.
        let scans = unsafe {
            if (*cinfo.err).msg_code != mozjpeg_sys::JTRC_SOS as c_int || cinfo.is_decompressor == 0
            {
                return;
            }
            let decompress = cinfo as *mut jpeg_common_struct as *mut jpeg_decompress_struct;
            (*decompress).input_scan_number
        };
        if scans >= SCAN_LIMIT as c_int {
            std::panic::resume_unwind(Box::new(Turbo::TooManyScans));
        }
    }

    // SAFETY: a zeroed `jpeg_error_mgr` (pointers and numbers) is what `jpeg_std_error`
    // fills in; it keeps no pointer to itself, so that it may be moved after.
    let mut err: mozjpeg_sys::jpeg_error_mgr = unsafe { std::mem::zeroed() };
    unsafe { mozjpeg_sys::jpeg_std_error(&mut err) };
    err.error_exit = Some(error_exit);
    err.emit_message = Some(emit_message);
    err
}

/// What an unwind out of libjpeg says (a `String` or [`Turbo::TooManyScans`] from
/// [`libjpeg_errors`], or a panic's message).
fn libjpeg_said(unwound: Box<dyn std::any::Any + Send>) -> Turbo {
    let unwound = match unwound.downcast::<Turbo>() {
        Ok(turbo) => return *turbo,
        Err(unwound) => unwound,
    };
    Turbo::Said(match unwound.downcast::<String>() {
        Ok(why) => *why,
        Err(unwound) => match unwound.downcast::<&str>() {
            Ok(why) => (*why).to_owned(),
            Err(_) => "libjpeg-turbo failed".to_owned(),
        },
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

/// Renders `variation` of the image `bytes`. Its steps are planned on the header's size; a
/// JPEG whose first step makes it at most half as large is decoded at a reduced scale
/// ([`pixels`]).
pub fn render(bytes: &[u8], variation: &Variation) -> Result<Rendered, Refused> {
    let (header, decoder) = open(bytes)?;
    let orientation = header.orientation;
    let plan = Plan::new(
        &variation.filters,
        header.width,
        header.height,
        turns(orientation),
    );
    let mut image = pixels(bytes, &header, decoder, plan.decode_at)?;
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

    /// `bytes` decoded by libjpeg-turbo for a variation at least `at` large.
    fn turbo(bytes: &[u8], at: Option<(u32, u32)>) -> Result<DynamicImage, Turbo> {
        let (header, _) = open(bytes).unwrap();
        super::jpeg(bytes, &header, at)
    }

    #[test]
    fn large_jpegs_are_decoded_at_a_reduced_scale() {
        let bytes = jpeg(1600, 1200);
        // 1/8 would be 200 × 150: enough for 150 × 100, not for 300 × 200 (1/4: 400 × 300).
        let eighth = turbo(&bytes, Some((150, 100))).unwrap();
        assert_eq!((eighth.width(), eighth.height()), (200, 150));
        let quarter = turbo(&bytes, Some((300, 200))).unwrap();
        assert_eq!((quarter.width(), quarter.height()), (400, 300));
        // Nothing below the whole size is enough; nor without a size.
        for at in [Some((900, 100)), None] {
            let whole = turbo(&bytes, at).unwrap();
            assert_eq!((whole.width(), whole.height()), (1600, 1200));
        }
        // The pixels are the picture's: libjpeg-turbo's whole decode is image's, give or take
        // the rounding of two IDCTs.
        let (ours, theirs) = (turbo(&bytes, None).unwrap(), decode_by_image(&bytes));
        let most = (ours.as_bytes().iter().zip(theirs.as_bytes()))
            .map(|(a, b)| a.abs_diff(*b))
            .max();
        assert!(most.is_some_and(|d| d <= 8), "{most:?}");
        // Grey stays grey.
        let mut grey = Vec::new();
        DynamicImage::ImageLuma8(image::GrayImage::from_fn(800, 600, |x, _| {
            image::Luma([x as u8])
        }))
        .write_with_encoder(image::codecs::jpeg::JpegEncoder::new(&mut grey))
        .unwrap();
        let small = turbo(&grey, Some((100, 75))).unwrap();
        assert!(matches!(small, DynamicImage::ImageLuma8(_)));
        assert_eq!((small.width(), small.height()), (100, 75));
        // Rendered at the reference's sizes all the same.
        let v = Variations::defaults();
        for (name, size) in [("small", (100, 75)), ("reference", (600, 450))] {
            let r = render(&bytes, v.get(name).unwrap()).unwrap();
            assert_eq!((r.width, r.height), size, "{name}");
            assert_eq!(header(&r.bytes), Some((Format::Jpeg, size.0, size.1)));
        }
        assert_eq!(check(&bytes), Ok((1600, 1200)));
    }

    /// `bytes` decoded whole by `image` alone.
    fn decode_by_image(bytes: &[u8]) -> DynamicImage {
        image::load_from_memory_with_format(bytes, ImageFormat::Jpeg).unwrap()
    }

    #[test]
    fn cmyk_jpegs_are_left_to_image() {
        let (w, h) = (800, 600);
        let cmyk: Vec<u8> = (0..w * h)
            .flat_map(|i| [(i % 251) as u8, 40, 90, 10])
            .collect();
        let mut compressor = mozjpeg::Compress::new(mozjpeg::ColorSpace::JCS_CMYK);
        compressor.set_size(w as usize, h as usize);
        compressor.set_quality(90.0);
        let mut compressor = compressor.start_compress(Vec::new()).unwrap();
        compressor.write_scanlines(&cmyk).unwrap();
        let bytes = compressor.finish().unwrap();
        assert_eq!(turbo(&bytes, Some((100, 75))).err(), Some(Turbo::NotGiven));
        let r = render(&bytes, Variations::defaults().get("small").unwrap()).unwrap();
        assert_eq!((r.width, r.height), (100, 75));
        assert_eq!(check(&bytes), Ok((800, 600)));
    }

    /// A JPEG whose frame header (SOF0) announces `w` × `h` pixels.
    fn jpeg_announcing(w: u16, h: u16) -> Vec<u8> {
        let mut bytes = jpeg(64, 48);
        let sof = bytes.windows(2).position(|m| m == [0xff, 0xc0]).unwrap();
        bytes[sof + 5..sof + 7].copy_from_slice(&h.to_be_bytes());
        bytes[sof + 7..sof + 9].copy_from_slice(&w.to_be_bytes());
        bytes
    }

    #[test]
    fn broken_jpegs_are_refused_as_image_refuses_them() {
        let big = jpeg_announcing(10_000, 10_000);
        let too_large = Refused::TooLarge {
            width: 10_000,
            height: 10_000,
        };
        assert_eq!(check(&big), Err(too_large.clone()));
        let small = Variations::defaults();
        let small = small.get("small").unwrap();
        assert_eq!(render(&big, small).err(), Some(too_large));
        // Cut before its scan: no decoder reads it.
        let whole = jpeg(1600, 1200);
        let scan = whole.windows(2).position(|m| m == [0xff, 0xda]).unwrap();
        assert!(matches!(check(&whole[..scan]), Err(Refused::Corrupt(_))));
        assert!(matches!(
            render(&whole[..scan], small),
            Err(Refused::Corrupt(_))
        ));
        // Cut in its scan, a scan overwritten, bytes before its end: libjpeg-turbo warns, and
        // the JPEG is accepted or refused as image alone does.
        let mut overwritten = whole.clone();
        let at = overwritten.len() / 2;
        overwritten[at..at + 64].fill(0x5a);
        let mut extraneous = whole.clone();
        extraneous.splice(whole.len() - 2..whole.len() - 2, [1, 2, 3]);
        for (name, bytes) in [
            ("cut", &whole[..whole.len() / 2]),
            ("overwritten", &overwritten[..]),
            ("extraneous", &extraneous[..]),
        ] {
            let warned = turbo(bytes, Some((100, 75))).err();
            assert!(matches!(warned, Some(Turbo::Said(_))), "{name}: {warned:?}");
            let by_image = image::load_from_memory(bytes).map(|i| (i.width(), i.height()));
            let checked = check(bytes);
            assert_eq!(
                checked.is_ok(),
                by_image.is_ok(),
                "{name}: {checked:?} {by_image:?}"
            );
            if let Ok(dims) = checked {
                assert_eq!(by_image.ok(), Some(dims), "{name}");
                let r = render(bytes, small).unwrap();
                assert_eq!((r.width, r.height), (100, 75), "{name}");
            }
        }
    }

    /// A progressive grey JPEG of 8 × 8 pixels made of `scans` scans: each the first scan of
    /// its DC coefficients at full precision (Ah = Al = 0), which a decoder may be given again
    /// without a warning, of one block whose difference is 0.
    pub(crate) fn progressive(scans: usize) -> Vec<u8> {
        let mut b = vec![0xff, 0xd8];
        // DQT: table 0, 8 bits, every step 1.
        b.extend([0xff, 0xdb, 0x00, 0x43, 0x00]);
        b.extend([1u8; 64]);
        // SOF2: 8 bits, 8 × 8, one component (1, sampled 1 × 1, table 0).
        b.extend([0xff, 0xc2, 0x00, 0x0b, 8, 0, 8, 0, 8, 1, 1, 0x11, 0]);
        // DHT: DC table 0, one code of one bit ("0") for category 0.
        b.extend([0xff, 0xc4, 0x00, 0x14, 0x00, 1]);
        b.extend([0u8; 15]);
        b.push(0);
        for _ in 0..scans {
            // SOS: component 1 with table 0, Ss = Se = 0, Ah = Al = 0; then its one block:
            // "0", padded with ones.
            b.extend([0xff, 0xda, 0x00, 0x08, 1, 1, 0x00, 0, 0, 0x00, 0x7f]);
        }
        b.extend([0xff, 0xd9]);
        b
    }

    #[test]
    fn jpegs_of_more_than_500_scans_are_refused() {
        let small = Variations::defaults();
        let small = small.get("small").unwrap();
        for scans in [1, 499] {
            let bytes = progressive(scans);
            assert_eq!(check(&bytes), Ok((8, 8)), "{scans}");
            assert!(turbo(&bytes, None).is_ok(), "{scans}");
            let r = render(&bytes, small).unwrap();
            assert_eq!((r.width, r.height), (8, 8), "{scans}");
        }
        // Refused by libjpeg-turbo, and not given to image's decoder after it.
        let many = progressive(SCAN_LIMIT as usize + 1);
        assert_eq!(turbo(&many, None).err(), Some(Turbo::TooManyScans));
        let refused = Refused::Corrupt("the JPEG has more than 500 scans".into());
        assert_eq!(check(&many), Err(refused.clone()));
        assert_eq!(render(&many, small).err(), Some(refused));
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
