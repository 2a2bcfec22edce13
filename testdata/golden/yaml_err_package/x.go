package yaml_err_package

const X = 1
