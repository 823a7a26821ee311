//! The textual pass-pipeline parser: `builtin.module(sundial-verify{target=cayman},
//! func.func(cse),canonicalize)`.
//!
//! The grammar is MLIR's: a comma-separated list of elements; an element is a name, optional
//! `{key=value ...}` options, and, for op names, a nested `( ... )` pipeline anchored on that
//! op. Rust passes (looked up in [`crate::registry`]) get their options validated here and are
//! added with `add_pass`; every other pass element is handed, with its options, to MLIR's own
//! parser (`mlirOpPassManagerAddPipeline`), so upstream passes and their options work as in
//! `mlir-opt`. A pipeline without an anchor is taken to run on `builtin.module`.

use crate::registry;
use melior::{
    Context,
    pass::{OperationPassManager, PassManager},
};
use std::ffi::c_void;

/// One parsed element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element {
    /// Pass flag or op name.
    pub name: String,
    /// Raw option text between the braces (without them), if any.
    pub options: Option<String>,
    /// Nested pipeline (for op-anchored elements).
    pub nested: Option<Vec<Element>>,
}

struct Parser<'s> {
    text: &'s str,
    pos: usize,
    depth: usize,
}

/// Nesting deeper than this is rejected (no real pipeline comes close).
const MAX_DEPTH: usize = 64;

impl<'s> Parser<'s> {
    fn err(&self, msg: &str) -> String {
        format!(
            "invalid pass pipeline at offset {}: {msg}\n  {}\n  {}^",
            self.pos,
            self.text,
            " ".repeat(self.pos)
        )
    }

    fn skip_ws(&mut self) {
        while self.text[self.pos..].starts_with(|c: char| c.is_whitespace()) {
            self.pos += self.text[self.pos..]
                .chars()
                .next()
                .map(char::len_utf8)
                .unwrap_or(1);
        }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn list(&mut self) -> Result<Vec<Element>, String> {
        let mut out = Vec::new();
        loop {
            self.skip_ws();
            if matches!(self.peek(), None | Some(')')) {
                if !out.is_empty() {
                    return Err(self.err("expected a pass name after ','"));
                }
                return Ok(out);
            }
            out.push(self.element()?);
            self.skip_ws();
            if self.peek() == Some(',') {
                self.pos += 1;
                continue;
            }
            return Ok(out);
        }
    }

    fn element(&mut self) -> Result<Element, String> {
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        {
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.err("expected a pass or operation name"));
        }
        let name = self.text[start..self.pos].to_string();
        self.skip_ws();
        let mut options = None;
        if self.peek() == Some('{') {
            let open = self.pos;
            let mut level = 0usize;
            let mut quote = false;
            loop {
                let Some(c) = self.peek() else {
                    self.pos = open;
                    return Err(self.err("unterminated '{' in pass options"));
                };
                self.pos += c.len_utf8();
                match c {
                    '"' => quote = !quote,
                    '{' if !quote => level += 1,
                    '}' if !quote => {
                        level -= 1;
                        if level == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
            }
            options = Some(self.text[open + 1..self.pos - 1].to_string());
            self.skip_ws();
        }
        let mut nested = None;
        if self.peek() == Some('(') {
            self.depth += 1;
            if self.depth > MAX_DEPTH {
                return Err(self.err("pipeline nesting is too deep"));
            }
            self.pos += 1;
            let inner = self.list()?;
            self.skip_ws();
            if self.peek() != Some(')') {
                return Err(self.err("expected ')'"));
            }
            self.pos += 1;
            self.depth -= 1;
            nested = Some(inner);
        }
        Ok(Element {
            name,
            options,
            nested,
        })
    }
}

/// Parses pipeline text into elements.
pub fn parse(text: &str) -> Result<Vec<Element>, String> {
    let mut p = Parser {
        text,
        pos: 0,
        depth: 0,
    };
    let list = p.list()?;
    p.skip_ws();
    if p.pos != text.len() {
        return Err(p.err("unexpected character"));
    }
    Ok(list)
}

/// Whether the pipeline `text` ends by running the semantic verifier on the whole module with
/// its own target: its last element (at the module level, inside `builtin.module(...)`) is
/// `sundial-middle-end` or `sundial-verify` with no options (every middle-end step is followed
/// by the verifier; `sundial-verify` is the verifier). A driver that verifies after a pipeline
/// need not verify again then: the verifier would walk the same IR with the same rules.
pub fn ends_verified(text: &str) -> bool {
    let Ok(mut list) = parse(text) else {
        return false;
    };
    loop {
        let Some(last) = list.pop() else { return false };
        match (last.name.as_str(), last.nested) {
            ("builtin.module", Some(nested)) if list.is_empty() => list = nested,
            ("sundial-middle-end" | "sundial-verify", None) => {
                return last.options.as_deref().is_none_or(|o| o.trim().is_empty());
            }
            _ => return false,
        }
    }
}

/// Splits `key=value key2="a b" key3={x y}` into pairs.
pub fn parse_options(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        if i >= chars.len() {
            break;
        }
        let start = i;
        while i < chars.len() && chars[i] != '=' && !chars[i].is_whitespace() {
            i += 1;
        }
        let key: String = chars[start..i].iter().collect();
        if i >= chars.len() || chars[i] != '=' {
            // A bare key is a boolean flag set to true, as in MLIR.
            out.push((key, "true".to_string()));
            continue;
        }
        i += 1;
        let value: String = match chars.get(i) {
            Some('"') => {
                let s = i + 1;
                i = s;
                while i < chars.len() && chars[i] != '"' {
                    i += 1;
                }
                if i >= chars.len() {
                    return Err(format!("unterminated quote in option '{key}'"));
                }
                let v = chars[s..i].iter().collect();
                i += 1;
                v
            }
            Some('{') => {
                let s = i + 1;
                let mut level = 0;
                while i < chars.len() {
                    match chars[i] {
                        '{' => level += 1,
                        '}' => {
                            level -= 1;
                            if level == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                if i >= chars.len() {
                    return Err(format!("unterminated '{{' in option '{key}'"));
                }
                let v = chars[s..i].iter().collect();
                i += 1;
                v
            }
            _ => {
                let s = i;
                while i < chars.len() && !chars[i].is_whitespace() {
                    i += 1;
                }
                chars[s..i].iter().collect()
            }
        };
        if key.is_empty() {
            return Err("empty option name".to_string());
        }
        out.push((key, value));
    }
    Ok(out)
}

unsafe extern "C" fn collect_error(chunk: mlir_sys::MlirStringRef, data: *mut c_void) {
    let out = unsafe { &mut *(data as *mut String) };
    out.push_str(&unsafe { sundial_dialects::ffi::string_ref_lossy(chunk) });
}

fn add_elements(
    context: &Context,
    opm: &OperationPassManager<'_, '_>,
    elements: &[Element],
) -> Result<(), String> {
    for e in elements {
        if let Some(nested) = &e.nested {
            if e.options.is_some() {
                return Err(format!(
                    "'{}': an operation anchor takes no options",
                    e.name
                ));
            }
            if !context.is_registered_operation(&e.name) {
                return Err(format!(
                    "'{}' is not a registered operation to anchor a nested pipeline on",
                    e.name
                ));
            }
            let inner = opm.nested_under(&e.name);
            add_elements(context, &inner, nested)?;
        } else if let Some(info) = registry::lookup_pipeline(&e.name) {
            let raw = match &e.options {
                Some(text) => {
                    parse_options(text).map_err(|m| format!("pipeline '{}': {m}", e.name))?
                }
                None => Vec::new(),
            };
            let options = info.parse_options(&raw)?;
            if let Some(create) = info.create {
                opm.add_pass(create(&options));
            } else {
                // The expansion names Rust passes only (no pipeline): one level of recursion.
                let elements = parse(&(info.expand)(&options))?;
                add_elements(context, opm, &elements)?;
            }
        } else if let Some(info) = registry::lookup(&e.name) {
            let raw = match &e.options {
                Some(text) => parse_options(text).map_err(|m| format!("pass '{}': {m}", e.name))?,
                None => Vec::new(),
            };
            let options = info.parse_options(&raw)?;
            opm.add_pass((info.create)(&options));
        } else {
            registry::register_upstream_passes();
            let text = match &e.options {
                Some(o) => format!("{}{{{o}}}", e.name),
                None => e.name.clone(),
            };
            let mut message = String::new();
            let ok = unsafe {
                mlir_sys::mlirOpPassManagerAddPipeline(
                    opm.to_raw(),
                    mlir_sys::MlirStringRef {
                        data: text.as_ptr() as *const _,
                        length: text.len(),
                    },
                    Some(collect_error),
                    &mut message as *mut String as *mut c_void,
                )
            };
            if ok.value == 0 {
                let detail = message.trim();
                return Err(if detail.is_empty() {
                    format!("unknown pass or pass option in '{text}' (see --list-passes)")
                } else {
                    format!("'{text}': {detail} (see --list-passes)")
                });
            }
        }
    }
    Ok(())
}

/// Parses `text` and adds its passes to `pm` (which runs on a `builtin.module`).
pub fn build(context: &Context, pm: &PassManager<'_>, text: &str) -> Result<(), String> {
    let elements = parse(text)?;
    let root = pm.as_operation_pass_manager();
    match elements.as_slice() {
        [single] if single.name == "builtin.module" && single.nested.is_some() => {
            if single.options.is_some() {
                return Err("'builtin.module': an operation anchor takes no options".into());
            }
            add_elements(context, &root, single.nested.as_deref().unwrap_or_default())
        }
        _ => add_elements(context, &root, &elements),
    }
}
