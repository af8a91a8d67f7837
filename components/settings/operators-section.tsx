"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/components/ui/cn";
import { isApiClientError } from "@/lib/client/api";
import type { AdminMember, AdminRole } from "@/lib/client/settings-types";
import { useAddAdmin } from "@/lib/client/use-add-admin";
import { useCurrentApp } from "@/lib/client/use-current-app";
import { useMe } from "@/lib/client/use-me";
import { useAdmins } from "@/lib/client/use-admins";
import { useRemoveAdmin } from "@/lib/client/use-remove-admin";
import { useAvailability } from "@/lib/client/use-availability";
import { AvailabilityDot, statusOf } from "@/components/panel/availability-dot";
import { UserText } from "@/components/ui/user-text";
import { ConfirmAction } from "./confirm-action";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Time } from "@/components/ui/time";
import { SectionCard } from "./section-card";
import { RoutingSection } from "./routing-section";

export function OperatorsSection({ appId }: { appId: string }) {
  const admins = useAdmins(appId);
  const { app } = useCurrentApp();
  // The server decides; this only spares operators a form that would be refused.
  const isOwner = app?.role === "owner";
  return (
    <div className="space-y-6">
      {isOwner && (
        <SectionCard
          title="Add an operator"
          titleId="add-admin-title"
          description="Operators answer conversations in the Inbox and work with leads. Owners also manage the team."
        >
          <AddOperatorForm appId={appId} />
        </SectionCard>
      )}

      <SectionCard
        title="Operators"
        titleId="admins-title"
        description={isOwner ? undefined : "Only the app’s owners can add or remove operators."}
        actions={admins.isFetching && !admins.isPending ? <Spinner label="Refreshing" /> : undefined}
      >
        {admins.isPending ? (
          <Spinner label="Loading operators" />
        ) : admins.isError ? (
          <div className="space-y-3">
            <ErrorAlert error={admins.error} title="Can’t load the operators" />
            <Button variant="secondary" size="sm" onClick={() => void admins.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <OperatorList appId={appId} admins={admins.data} canRemove={isOwner} />
        )}
      </SectionCard>
      {isOwner && <RoutingSection appId={appId} />}
    </div>
  );
}

function AddOperatorForm({ appId }: { appId: string }) {
  const add = useAddAdmin(appId);
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [role, setRole] = useState<AdminRole>("operator");
  const [added, setAdded] = useState<string | null>(null);
  const fields = isApiClientError(add.error) ? add.error.fields : {};

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setAdded(null);
    add.mutate(
      {
        email: email.trim(),
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(password ? { password } : {}),
        role,
      },
      {
        onSuccess: (op) => {
          setEmail("");
          setName("");
          setPassword("");
          setRole("operator");
          setAdded(`${op.name} (${op.email}) is now ${op.role === "owner" ? "an owner" : "an operator"}.`);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-labelledby="add-admin-title">
      <div className="grid gap-4 md:grid-cols-2">
        <Field label="Email" error={fields.email}>
          {(control) => (
            <Input
              {...control}
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              required
              autoComplete="off"
            />
          )}
        </Field>
        <Field
          label="Name"
          hint="Shown to teammates; defaults to the email’s first part."
          error={fields.name}
        >
          {(control) => (
            <Input
              {...control}
              value={name}
              onChange={(e) => setName(e.target.value)}
              maxLength={255}
              autoComplete="off"
            />
          )}
        </Field>
        <Field
          label="Password"
          hint="At least 8 characters. Not needed for someone who already has an account: they keep theirs."
          error={fields.password}
        >
          {(control) => (
            <Input
              {...control}
              type="password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              autoComplete="new-password"
            />
          )}
        </Field>
        <Field label="Role" error={fields.role}>
          {(control) => (
            <select
              id={control.id}
              aria-describedby={control["aria-describedby"]}
              aria-invalid={control["aria-invalid"]}
              value={role}
              onChange={(e) => setRole(e.target.value === "owner" ? "owner" : "operator")}
              className={cn(
                "block h-10 w-full rounded-lg bg-white px-3 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset",
                "hover:ring-slate-400 focus:ring-2 focus:ring-brand-600 focus:outline-none",
              )}
            >
              <option value="operator">Operator</option>
              <option value="owner">Owner (also manages operators)</option>
            </select>
          )}
        </Field>
      </div>
      <ErrorAlert error={add.error} title="Could not add the operator" />
      {added && (
        <p role="status" className="text-sm text-emerald-700">
          {added}
        </p>
      )}
      <Button type="submit" loading={add.isPending}>
        Add operator
      </Button>
    </form>
  );
}

function OperatorList({
  appId,
  admins,
  canRemove,
}: {
  appId: string;
  admins: AdminMember[];
  canRemove: boolean;
}) {
  const remove = useRemoveAdmin(appId);
  const availability = useAvailability(appId);
  const me = useMe();
  const myId = me.data ? String(me.data.admin.id) : null;
  const removingId = remove.isPending ? String(remove.variables) : null;
  return (
    <div className="space-y-3">
      <ErrorAlert error={remove.error} title="Could not remove the operator" />
      {admins.length === 0 ? (
        <p className="text-sm text-slate-600">No operators.</p>
      ) : (
        <ul className="divide-y divide-slate-200" aria-label="Operators">
          {admins.map((op) => {
            const isMe = String(op.id) === myId;
            return (
              <li
                key={String(op.id)}
                data-testid="admin-row"
                data-admin-id={String(op.id)}
                className="flex flex-col gap-3 py-3 first:pt-0 last:pb-0 md:flex-row md:items-center md:justify-between"
              >
                <div className="min-w-0 space-y-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <AvailabilityDot
                      status={statusOf(availability.data, String(op.id))}
                      adminId={String(op.id)}
                    />
                    <UserText className="font-medium text-slate-900">{op.name}</UserText>
                    {isMe && <span className="text-xs text-slate-500">(you)</span>}
                    <span
                      className={cn(
                        "rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset",
                        op.role === "owner"
                          ? "bg-brand-50 text-brand-700 ring-brand-200"
                          : "bg-slate-100 text-slate-700 ring-slate-200",
                      )}
                    >
                      {op.role === "owner" ? "Owner" : "Operator"}
                    </span>
                  </div>
                  <p className="text-sm break-all text-slate-600">{op.email}</p>
                  <p className="text-xs text-slate-500">
                    Joined <Time seconds={op.created} />
                  </p>
                </div>
                {canRemove && (
                  <ConfirmAction
                    label="Remove"
                    accessibleName={`Remove ${op.name}`}
                    question={
                      isMe
                        ? "Remove yourself from this app? You lose access to it."
                        : `Remove ${op.name}? Their open conversations become unassigned.`
                    }
                    confirmLabel="Remove operator"
                    pending={removingId === String(op.id)}
                    onConfirm={() => remove.mutate(op.id)}
                  />
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
