//! PHP `serialize()` strings, as the legacy storage keeps names and descriptions of content
//! types, Field definitions and other lists: read into a tree, never evaluated (objects are
//! refused, not built).

/// A PHP value.
#[derive(Debug, Clone, PartialEq)]
pub enum Php {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    /// An array: its keys (integers as their decimal text) and values, in order.
    Array(Vec<(String, Php)>),
}

/// Reads one serialized value; an error says where the text stops making sense.
pub fn unserialize(text: &str) -> Result<Php, String> {
    let mut p = Parser {
        bytes: text.as_bytes(),
        at: 0,
    };
    let v = p.value()?;
    Ok(v)
}

/// The language → text pairs of a serialized names list (`a:2:{s:6:"eng-GB";s:4:"Name";
/// s:16:"always-available";s:6:"eng-GB";}`), without `always-available` and other keys that
/// are not language codes; an empty map for an empty, unreadable or non-array text.
pub fn language_texts(text: &str) -> serde_json::Map<String, serde_json::Value> {
    let mut out = serde_json::Map::new();
    if let Ok(Php::Array(entries)) = unserialize(text) {
        for (k, v) in entries {
            if is_language_code(&k)
                && let Php::Str(s) = v
            {
                out.insert(k, serde_json::Value::String(s));
            }
        }
    }
    out
}

/// `eng-GB`, `ger-DE`, `fre-FR`, `nor-NO`: three letters, a dash, two or more letters.
fn is_language_code(k: &str) -> bool {
    let b = k.as_bytes();
    b.len() >= 6
        && b[3] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 3 || c.is_ascii_alphabetic())
}

struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn fail<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("PHP serialize: {what} at byte {}", self.at))
    }

    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.bytes.get(self.at) == Some(&c) {
            self.at += 1;
            Ok(())
        } else {
            self.fail(&format!("expected '{}'", c as char))
        }
    }

    /// The text up to (not including) `end`, which is consumed.
    fn until(&mut self, end: u8) -> Result<&str, String> {
        let start = self.at;
        let Some(len) = self.bytes[start..].iter().position(|&b| b == end) else {
            return self.fail(&format!("missing '{}'", end as char));
        };
        self.at = start + len + 1;
        std::str::from_utf8(&self.bytes[start..start + len]).or_else(|_| self.fail("bad UTF-8"))
    }

    fn number<T: std::str::FromStr>(&mut self, end: u8) -> Result<T, String> {
        let t = self.until(end)?.to_string();
        t.parse()
            .or_else(|_| self.fail(&format!("'{t}' is not a number")))
    }

    fn value(&mut self) -> Result<Php, String> {
        let Some(&kind) = self.bytes.get(self.at) else {
            return self.fail("unexpected end");
        };
        self.at += 1;
        if kind == b'N' {
            self.expect(b';')?;
            return Ok(Php::Null);
        }
        self.expect(b':')?;
        match kind {
            b'b' => Ok(Php::Bool(self.number::<i64>(b';')? != 0)),
            b'i' => Ok(Php::Int(self.number(b';')?)),
            b'd' => Ok(Php::Float(self.number(b';')?)),
            b's' => {
                let s = self.string()?;
                self.expect(b';')?;
                Ok(Php::Str(s))
            }
            b'a' => {
                let n: usize = self.number(b':')?;
                self.expect(b'{')?;
                let mut entries = Vec::with_capacity(n.min(1024));
                for _ in 0..n {
                    let key = match self.value()? {
                        Php::Int(i) => i.to_string(),
                        Php::Str(s) => s,
                        _ => return self.fail("an array key is neither integer nor string"),
                    };
                    let v = self.value()?;
                    entries.push((key, v));
                }
                self.expect(b'}')?;
                Ok(Php::Array(entries))
            }
            _ => self.fail(&format!("'{}' values are not read", kind as char)),
        }
    }

    /// `len:"bytes"`: the length counts bytes, not characters.
    fn string(&mut self) -> Result<String, String> {
        let len: usize = self.number(b':')?;
        self.expect(b'"')?;
        let end = self.at + len;
        let Some(raw) = self.bytes.get(self.at..end) else {
            return self.fail("string longer than the text");
        };
        let s = String::from_utf8_lossy(raw).into_owned();
        self.at = end;
        self.expect(b'"')?;
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lists_as_the_legacy_storage_writes_them() {
        let text = r#"a:2:{s:16:"always-available";s:6:"eng-US";s:6:"eng-US";s:4:"Name";}"#;
        let names = language_texts(text);
        assert_eq!(names.len(), 1);
        assert_eq!(names["eng-US"], "Name");
        let empty = r#"a:2:{i:0;s:0:"";s:16:"always-available";b:0;}"#;
        assert!(language_texts(empty).is_empty());
        // Lengths count bytes.
        let utf8 = "a:1:{s:6:\"ger-DE\";s:7:\"Größe\";}";
        assert_eq!(language_texts(utf8)["ger-DE"], "Größe");
        assert_eq!(
            unserialize("a:3:{i:0;N;i:1;d:1.5;i:2;b:1;}"),
            Ok(Php::Array(vec![
                ("0".into(), Php::Null),
                ("1".into(), Php::Float(1.5)),
                ("2".into(), Php::Bool(true))
            ]))
        );
        assert!(unserialize(r#"O:8:"stdClass":0:{}"#).is_err());
        assert!(unserialize("s:10:\"short\";").is_err());
        assert!(language_texts("not php").is_empty());
    }
}
