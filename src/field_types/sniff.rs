//! What an uploaded file is: its MIME type (from magic bytes, else the file name's extension)
//! and, for PNG, JPEG, GIF and WebP images, its width and height read from the header.

/// The MIME type of a file: magic bytes first, then the extension, else
/// `application/octet-stream`.
pub(crate) fn mime_type(data: &[u8], file_name: &str) -> String {
    magic(data)
        .or_else(|| by_extension(file_name))
        .unwrap_or("application/octet-stream")
        .to_string()
}

fn magic(d: &[u8]) -> Option<&'static str> {
    let at = |offset: usize, sig: &[u8]| d.get(offset..offset + sig.len()) == Some(sig);
    Some(if at(0, b"\x89PNG\r\n\x1a\n") {
        "image/png"
    } else if at(0, b"\xff\xd8\xff") {
        "image/jpeg"
    } else if at(0, b"GIF87a") || at(0, b"GIF89a") {
        "image/gif"
    } else if at(0, b"RIFF") && at(8, b"WEBP") {
        "image/webp"
    } else if at(0, b"RIFF") && at(8, b"WAVE") {
        "audio/wav"
    } else if at(0, b"RIFF") && at(8, b"AVI ") {
        "video/x-msvideo"
    } else if at(0, b"BM") && d.len() > 26 {
        "image/bmp"
    } else if at(0, b"II*\0") || at(0, b"MM\0*") {
        "image/tiff"
    } else if at(0, b"%PDF-") {
        "application/pdf"
    } else if at(4, b"ftyp") {
        if at(8, b"qt  ") {
            "video/quicktime"
        } else if at(8, b"M4A ") {
            "audio/mp4"
        } else {
            "video/mp4"
        }
    } else if at(0, b"\x1a\x45\xdf\xa3") {
        "video/webm"
    } else if at(0, b"OggS") {
        "audio/ogg"
    } else if at(0, b"ID3") || at(0, b"\xff\xfb") {
        "audio/mpeg"
    } else if at(0, b"fLaC") {
        "audio/flac"
    } else {
        return None;
    })
}

fn by_extension(file_name: &str) -> Option<&'static str> {
    let ext = file_name.rsplit_once('.')?.1.to_ascii_lowercase();
    Some(match ext.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" | "jpe" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        "bmp" => "image/bmp",
        "tif" | "tiff" => "image/tiff",
        "ico" => "image/vnd.microsoft.icon",
        "pdf" => "application/pdf",
        "txt" => "text/plain",
        "csv" => "text/csv",
        "html" | "htm" => "text/html",
        "xml" => "application/xml",
        "json" => "application/json",
        "zip" => "application/zip",
        "gz" => "application/gzip",
        "doc" => "application/msword",
        "docx" => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls" => "application/vnd.ms-excel",
        "xlsx" => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "ppt" => "application/vnd.ms-powerpoint",
        "pptx" => "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "odt" => "application/vnd.oasis.opendocument.text",
        "mp4" | "m4v" => "video/mp4",
        "mov" => "video/quicktime",
        "webm" => "video/webm",
        "ogv" => "video/ogg",
        "avi" => "video/x-msvideo",
        "mp3" => "audio/mpeg",
        "wav" => "audio/wav",
        "ogg" | "oga" => "audio/ogg",
        "m4a" => "audio/mp4",
        "flac" => "audio/flac",
        "swf" => "application/x-shockwave-flash",
        _ => return None,
    })
}

/// Width and height of a PNG, JPEG, GIF or WebP image; `None` for anything else.
pub(crate) fn image_size(d: &[u8]) -> Option<(u32, u32)> {
    match magic(d)? {
        "image/png" => png(d),
        "image/gif" => Some((le16(d, 6)? as u32, le16(d, 8)? as u32)),
        "image/jpeg" => jpeg(d),
        "image/webp" => webp(d),
        _ => None,
    }
}

fn be16(d: &[u8], i: usize) -> Option<u16> {
    Some(u16::from_be_bytes(d.get(i..i + 2)?.try_into().ok()?))
}

fn le16(d: &[u8], i: usize) -> Option<u16> {
    Some(u16::from_le_bytes(d.get(i..i + 2)?.try_into().ok()?))
}

fn be32(d: &[u8], i: usize) -> Option<u32> {
    Some(u32::from_be_bytes(d.get(i..i + 4)?.try_into().ok()?))
}

fn le24(d: &[u8], i: usize) -> Option<u32> {
    let b = d.get(i..i + 3)?;
    Some(b[0] as u32 | (b[1] as u32) << 8 | (b[2] as u32) << 16)
}

fn png(d: &[u8]) -> Option<(u32, u32)> {
    // Signature, then the IHDR chunk: length, "IHDR", width, height.
    if d.get(12..16)? != b"IHDR" {
        return None;
    }
    Some((be32(d, 16)?, be32(d, 20)?))
}

fn jpeg(d: &[u8]) -> Option<(u32, u32)> {
    let mut i = 2;
    loop {
        // Skip fill bytes before a marker.
        while *d.get(i)? == 0xff && *d.get(i + 1)? == 0xff {
            i += 1;
        }
        if *d.get(i)? != 0xff {
            return None;
        }
        let marker = *d.get(i + 1)?;
        match marker {
            // Markers without a length.
            0x01 | 0xd0..=0xd8 => {
                i += 2;
                continue;
            }
            // Start of frame (not DHT 0xc4, JPG 0xc8, DAC 0xcc).
            0xc0..=0xcf if !matches!(marker, 0xc4 | 0xc8 | 0xcc) => {
                let h = be16(d, i + 5)?;
                let w = be16(d, i + 7)?;
                return Some((w as u32, h as u32));
            }
            0xd9 | 0xda => return None,
            _ => {
                let len = be16(d, i + 2)? as usize;
                if len < 2 {
                    return None;
                }
                i += 2 + len;
            }
        }
    }
}

fn webp(d: &[u8]) -> Option<(u32, u32)> {
    match d.get(12..16)? {
        b"VP8 " => {
            // Frame tag (3 bytes), start code (3), then 14-bit width and height.
            if d.get(23..26)? != b"\x9d\x01\x2a" {
                return None;
            }
            Some((
                (le16(d, 26)? & 0x3fff) as u32,
                (le16(d, 28)? & 0x3fff) as u32,
            ))
        }
        b"VP8L" => {
            if *d.get(20)? != 0x2f {
                return None;
            }
            let b = d.get(21..25)?;
            let bits = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            Some(((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1))
        }
        b"VP8X" => Some((le24(d, 24)? + 1, le24(d, 27)? + 1)),
        _ => None,
    }
}

#[cfg(test)]
pub(crate) mod samples {
    /// A 3×2 PNG image.
    pub fn png_3x2() -> Vec<u8> {
        let img = image::RgbaImage::from_pixel(3, 2, image::Rgba([10, 20, 30, 255]));
        let mut out = Vec::new();
        image::DynamicImage::ImageRgba8(img)
            .write_with_encoder(image::codecs::png::PngEncoder::new(&mut out))
            .expect("a PNG");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_image_sizes() {
        assert_eq!(image_size(&samples::png_3x2()), Some((3, 2)));
        let gif = b"GIF89a\x05\x00\x07\x00\x00\x00\x00";
        assert_eq!(image_size(gif), Some((5, 7)));
        // SOI, APP0 (length 4), SOF0 with height 16, width 32.
        let jpeg = b"\xff\xd8\xff\xe0\x00\x04\x00\x00\xff\xc0\x00\x11\x08\x00\x10\x00\x20\x03";
        assert_eq!(image_size(jpeg), Some((32, 16)));
        let mut webp = b"RIFF\0\0\0\0WEBPVP8X\x0a\0\0\0\0\0\0\0".to_vec();
        webp.extend_from_slice(&[9, 0, 0, 4, 0, 0]);
        assert_eq!(image_size(&webp), Some((10, 5)));
        assert_eq!(image_size(b"not an image"), None);
    }

    #[test]
    fn guesses_mime_types() {
        assert_eq!(mime_type(&samples::png_3x2(), "x.bin"), "image/png");
        assert_eq!(mime_type(b"hello", "notes.TXT"), "text/plain");
        assert_eq!(mime_type(b"%PDF-1.4", "x"), "application/pdf");
        assert_eq!(mime_type(b"\0\0", "x"), "application/octet-stream");
    }
}
