//! Node-API link settings for the host platform (none are needed on Linux; macOS needs
//! `-undefined dynamic_lookup`).

fn main() {
    napi_build::setup();
}
