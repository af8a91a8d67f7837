export { Button, type ButtonProps } from "./button";
export { Input, type InputProps } from "./input";
export { Field, type FieldProps, type FieldControlProps } from "./field";
export { Spinner } from "./spinner";
export { LogoMark } from "./logo";
export { cn } from "./cn";
