"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/components/ui/cn";
import { isApiClientError } from "@/lib/client/api";
import { isScope, SCOPE_DESCRIPTIONS, SCOPES, type Scope } from "@/lib/auth/scopes";
import type { ApiKey, NewApiKey } from "@/lib/client/settings-types";
import { useApiKeys } from "@/lib/client/use-api-keys";
import { useCreateApiKey } from "@/lib/client/use-create-api-key";
import { useRevokeApiKey } from "@/lib/client/use-revoke-api-key";
import { CheckboxGroup } from "./checkbox-group";
import { ConfirmAction } from "./confirm-action";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Time } from "@/components/ui/time";
import { SecretBox } from "./secret-box";
import { SectionCard } from "./section-card";
import { ApiUsageCard } from "./api-usage-card";

export function ApiKeysSection({ appId }: { appId: string }) {
  const keys = useApiKeys(appId);
  const [created, setCreated] = useState<NewApiKey | null>(null);
  return (
    <div className="space-y-6">
      <SectionCard
        title="Create an API key"
        titleId="create-api-key-title"
        description="Keys let your backend call the API as this app. Give each integration its own key."
      >
        <CreateApiKeyForm appId={appId} onCreated={setCreated} />
        {created && (
          <div className="mt-4 space-y-2">
            <SecretBox
              label={`Token for “${created.name || created.prefix}”`}
              value={created.token}
              testId="new-api-token"
              autoFocus
              note={
                <>
                  <strong>Copy it now: you won’t see it again.</strong> Only a hash is stored; if you lose it,
                  revoke this key and create another.
                </>
              }
            />
            <Button variant="ghost" size="sm" onClick={() => setCreated(null)}>
              I’ve copied it, hide the token
            </Button>
          </div>
        )}
      </SectionCard>

      <SectionCard
        title="API keys"
        titleId="api-keys-title"
        actions={keys.isFetching && !keys.isPending ? <Spinner label="Refreshing" /> : undefined}
      >
        {keys.isPending ? (
          <Spinner label="Loading API keys" />
        ) : keys.isError ? (
          <div className="space-y-3">
            <ErrorAlert error={keys.error} title="Can’t load the API keys" />
            <Button variant="secondary" size="sm" onClick={() => void keys.refetch()}>
              Try again
            </Button>
          </div>
        ) : keys.data.length === 0 ? (
          <p className="text-sm text-slate-600">No API keys yet.</p>
        ) : (
          <ApiKeyList appId={appId} keys={keys.data} />
        )}
      </SectionCard>

      <ApiUsageCard />
    </div>
  );
}

function CreateApiKeyForm({ appId, onCreated }: { appId: string; onCreated: (k: NewApiKey) => void }) {
  const create = useCreateApiKey(appId);
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Scope[]>([...SCOPES]);
  const [localError, setLocalError] = useState<string | null>(null);
  const fields = isApiClientError(create.error) ? create.error.fields : {};

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (scopes.length === 0) {
      setLocalError("Choose at least one scope.");
      return;
    }
    setLocalError(null);
    create.mutate(
      { name: name.trim(), scopes },
      {
        onSuccess: (key) => {
          setName("");
          setScopes([...SCOPES]);
          onCreated(key);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-labelledby="create-api-key-title">
      <Field label="Name" hint="Where the key is used, e.g. “CRM sync”." error={fields.name}>
        {(control) => (
          <Input
            {...control}
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={255}
            autoComplete="off"
            className="max-w-md"
          />
        )}
      </Field>
      <CheckboxGroup
        legend="Scopes"
        name="scopes"
        options={SCOPES}
        value={scopes}
        onChange={(next) => {
          setScopes(next);
          setLocalError(null);
        }}
        describe={(s) => SCOPE_DESCRIPTIONS[s]}
        error={localError ?? fields.scopes}
      />
      <ErrorAlert error={create.error} title="Could not create the key" />
      <Button type="submit" loading={create.isPending}>
        Create key
      </Button>
    </form>
  );
}

function ApiKeyList({ appId, keys }: { appId: string; keys: ApiKey[] }) {
  const revoke = useRevokeApiKey(appId);
  const revokingId = revoke.isPending ? String(revoke.variables) : null;
  return (
    <div className="space-y-3">
      <ErrorAlert error={revoke.error} title="Could not revoke the key" />
      <ul className="divide-y divide-slate-200" aria-label="API keys">
        {keys.map((key) => (
          <li
            key={String(key.id)}
            data-testid="api-key-row"
            data-key-id={String(key.id)}
            className="flex flex-col gap-3 py-3 first:pt-0 last:pb-0 md:flex-row md:items-center md:justify-between"
          >
            <div className="min-w-0 space-y-1">
              <div className="flex flex-wrap items-center gap-2">
                <span className={cn("font-medium", key.revoked ? "text-slate-500" : "text-slate-900")}>
                  {key.name || "Untitled key"}
                </span>
                <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                  {key.prefix}…
                </code>
                {key.revoked ? (
                  <span className="rounded-full bg-red-50 px-2 py-0.5 text-xs font-medium text-red-700 ring-1 ring-red-200 ring-inset">
                    Revoked
                  </span>
                ) : (
                  <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700 ring-1 ring-emerald-200 ring-inset">
                    Active
                  </span>
                )}
              </div>
              <p className="text-xs text-slate-500">
                Created <Time seconds={key.created} /> · Last used{" "}
                <Time seconds={key.last_used} fallback="Never" />
              </p>
              <ul className="flex flex-wrap gap-1" aria-label="Scopes">
                {key.scopes.map((s) => (
                  <li
                    key={s}
                    title={isScope(s) ? SCOPE_DESCRIPTIONS[s] : undefined}
                    className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[11px] text-slate-700"
                  >
                    {s}
                  </li>
                ))}
              </ul>
            </div>
            {!key.revoked && (
              <ConfirmAction
                label="Revoke"
                accessibleName={`Revoke ${key.name || key.prefix}`}
                question={`Revoke “${key.name || key.prefix}”? Apps using it stop working.`}
                confirmLabel="Revoke key"
                pending={revokingId === String(key.id)}
                onConfirm={() => revoke.mutate(key.id)}
              />
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
