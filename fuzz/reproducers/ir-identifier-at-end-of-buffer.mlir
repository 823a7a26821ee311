func.func @f() {
  "bir.gather"() {data = {pattern = a