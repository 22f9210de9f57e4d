// ERROR: public_declaration.mlir:5:1: error: @external: a public function needs a body (declarations are private)
// Found by fuzz_pipeline: a public function without a body was taken for an
// entry point and codegen walked its missing body (a segmentation fault).
// MLIR's func verifier requires declarations to be private.
func.func public @external(tensor<f32>) -> tensor<f32>
