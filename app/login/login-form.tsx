"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { isApiClientError } from "@/lib/client/api";
import { useLogin } from "@/lib/client/use-login";
import { logInWithoutScript, type LoginProblem } from "./actions";

type FieldErrors = Partial<Record<"email" | "password", string>>;

const PROBLEMS: Record<LoginProblem, string> = {
  failed: "Wrong email or password.",
  throttled: "Too many attempts. Wait a moment and try again.",
};

/**
 * `next`: where to go once logged in, already checked to be a path on this site. `problem`: how a login posted
 * without the script failed.
 */
export function LoginForm({ next, problem }: { next: string; problem?: LoginProblem }) {
  const router = useRouter();
  const login = useLogin();
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(problem ? PROBLEMS[problem] : null);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const pending = login.isPending || login.isSuccess;

  // Counts failed logins. The field is focused once the render that re-enables the fieldset has committed: a
  // disabled input cannot take focus, and onError runs before that render.
  const [failures, setFailures] = useState(0);
  useEffect(() => {
    if (failures === 0 || pending) return;
    const target = passwordRef.current;
    target?.focus();
    target?.select();
  }, [failures, pending]);

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (pending) return;
    const form = new FormData(e.currentTarget);
    const field = (name: string) => {
      const v = form.get(name);
      return typeof v === "string" ? v : "";
    };
    const email = field("email").trim();
    const password = field("password");
    const errors: FieldErrors = {};
    if (!email) errors.email = "Enter your email address.";
    if (!password) errors.password = "Enter your password.";
    setFieldErrors(errors);
    setFormError(null);
    if (errors.email || errors.password) {
      (errors.email ? emailRef : passwordRef).current?.focus();
      return;
    }
    login.mutate(
      { email, password },
      {
        // useLogin has cached the operator's session for the panel (queryKeys.auth.me).
        onSuccess: () => router.replace(next),
        onError: (err) => {
          if (isApiClientError(err)) {
            const fe: FieldErrors = {};
            if (err.fields.email) fe.email = err.fields.email;
            if (err.fields.password) fe.password = err.fields.password;
            setFieldErrors(fe);
            setFormError(fe.email || fe.password ? null : err.message);
          } else {
            setFormError("Something went wrong. Please try again.");
          }
          // Let the operator retype the password straight away.
          setFailures((n) => n + 1);
        },
      },
    );
  }

  return (
    // Without the script (or before it runs) the form posts to logInWithoutScript; with it, onSubmit calls the API
    // and prevents that post.
    <form
      action={logInWithoutScript}
      onSubmit={onSubmit}
      noValidate
      className="space-y-5"
      aria-describedby={formError ? "login-error" : undefined}
    >
      {formError && (
        <div
          id="login-error"
          role="alert"
          className="flex gap-2.5 rounded-lg bg-red-50 px-3.5 py-3 text-sm text-red-800 ring-1 ring-inset ring-red-200"
        >
          <svg
            viewBox="0 0 20 20"
            fill="currentColor"
            aria-hidden="true"
            className="mt-px size-4 shrink-0 text-red-600"
          >
            <path
              fillRule="evenodd"
              d="M10 18a8 8 0 1 0 0-16 8 8 0 0 0 0 16ZM9.25 6.5a.75.75 0 0 1 1.5 0v4a.75.75 0 0 1-1.5 0v-4ZM10 14.5a1 1 0 1 0 0-2 1 1 0 0 0 0 2Z"
              clipRule="evenodd"
            />
          </svg>
          <p>{formError}</p>
        </div>
      )}
      <input type="hidden" name="next" value={next} />
      <fieldset disabled={pending} className="space-y-5">
        <Field label="Email" error={fieldErrors.email}>
          {(control) => (
            <Input
              {...control}
              ref={emailRef}
              name="email"
              type="email"
              autoComplete="username"
              inputMode="email"
              autoCapitalize="none"
              spellCheck={false}
              autoFocus
              placeholder="you@company.com"
            />
          )}
        </Field>
        <Field label="Password" error={fieldErrors.password}>
          {(control) => (
            <Input
              {...control}
              ref={passwordRef}
              name="password"
              type="password"
              autoComplete="current-password"
            />
          )}
        </Field>
      </fieldset>
      <Button type="submit" size="lg" className="w-full" loading={pending}>
        {pending ? "Logging in…" : "Log in"}
      </Button>
    </form>
  );
}
