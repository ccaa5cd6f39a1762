/**
 * The servers (guilds) the fake bot is in: their roles, text channels and members, the
 * permissions those give, and the GUILD_CREATE each is announced with after READY.
 *
 * Permissions are computed as Discord does at guild level: the owner and anyone holding
 * ADMINISTRATOR have all of them; everyone else has the @everyone role's permissions or'd with
 * their roles'. Channel overwrites are not modelled.
 */
import {
  ChannelType,
  GuildDefaultMessageNotifications,
  GuildExplicitContentFilter,
  GuildMFALevel,
  GuildNSFWLevel,
  GuildPremiumTier,
  GuildVerificationLevel,
  PermissionFlagsBits,
  type APIGuildMember,
  type APITextChannel,
  type APIRole,
  type APIUser,
  type GatewayGuildCreateDispatchData,
  type GuildMemberFlags,
  type GuildSystemChannelFlags,
  type RoleFlags,
} from 'discord.js';
import { omit } from './json.ts';
import { snowflake } from './snowflake.ts';

/** Every permission bit Discord defines (what the owner and administrators have). */
export const ALL_PERMISSIONS: bigint = Object.values(PermissionFlagsBits).reduce((all, bit) => all | bit, 0n);

/** What @everyone may do in a new server, near enough: see, talk, attach, react, use commands. */
export const EVERYONE_PERMISSIONS: bigint =
  PermissionFlagsBits.CreateInstantInvite |
  PermissionFlagsBits.AddReactions |
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.AttachFiles |
  PermissionFlagsBits.ReadMessageHistory |
  PermissionFlagsBits.UseExternalEmojis |
  PermissionFlagsBits.Connect |
  PermissionFlagsBits.Speak |
  PermissionFlagsBits.ChangeNickname |
  PermissionFlagsBits.UseApplicationCommands;

/** The bot's own managed role, as its invite link would grant. */
export const BOT_PERMISSIONS: bigint =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.AttachFiles |
  PermissionFlagsBits.ReadMessageHistory |
  PermissionFlagsBits.UseApplicationCommands;

/** A member permission string as an interaction carries it: an administrator's. */
export const ADMIN_PERMISSIONS = ALL_PERMISSIONS.toString();
/** A member permission string as an interaction carries it: a plain member's. */
export const MEMBER_PERMISSIONS = EVERYONE_PERMISSIONS.toString();

export interface FakeUserSpec {
  readonly id: string;
  readonly username: string;
  readonly globalName?: string;
}

export interface FakeMemberSpec extends FakeUserSpec {
  /** Role ids (not @everyone, which every member has). */
  readonly roles?: readonly string[];
  readonly nick?: string;
}

export interface FakeRoleSpec {
  readonly id: string;
  readonly name: string;
  readonly permissions: bigint | string;
}

export interface FakeChannelSpec {
  readonly id: string;
  readonly name: string;
}

export interface FakeGuildSpec {
  readonly id: string;
  readonly name: string;
  readonly ownerId: string;
  readonly members?: readonly FakeMemberSpec[];
  readonly roles?: readonly FakeRoleSpec[];
  /** Text channels; one named `general` (with a made-up id) when none are given. */
  readonly channels?: readonly FakeChannelSpec[];
  /** The @everyone role's permissions (default EVERYONE_PERMISSIONS). */
  readonly everyonePermissions?: bigint | string;
}

export function makeUser(spec: FakeUserSpec, bot = false): APIUser {
  return {
    id: spec.id,
    username: spec.username,
    discriminator: bot ? '0000' : '0',
    global_name: spec.globalName ?? (bot ? null : spec.username),
    avatar: null,
    ...(bot ? { bot: true } : {}),
  };
}

interface Member {
  readonly user: APIUser;
  readonly roles: readonly string[];
  readonly nick: string | null;
  readonly joinedAt: string;
}

export class FakeGuild {
  readonly id: string;
  readonly name: string;
  readonly ownerId: string;
  readonly roles: readonly APIRole[];
  readonly channels: readonly APITextChannel[];
  readonly #members = new Map<string, Member>();
  readonly #joinedAt = new Date().toISOString();
  readonly #firstMember: APIUser | undefined;

  constructor(spec: FakeGuildSpec, bot: APIUser) {
    this.id = spec.id;
    this.name = spec.name;
    this.ownerId = spec.ownerId;
    const botRoleId = snowflake();
    this.roles = [
      role(spec.id, '@everyone', BigInt(spec.everyonePermissions ?? EVERYONE_PERMISSIONS), 0),
      ...(spec.roles ?? []).map((r, i) => role(r.id, r.name, BigInt(r.permissions), i + 1)),
      { ...role(botRoleId, bot.username, BOT_PERMISSIONS, (spec.roles?.length ?? 0) + 1), managed: true, tags: { bot_id: bot.id } },
    ];
    const channels = spec.channels ?? [{ id: snowflake(), name: 'general' }];
    this.channels = channels.map((c, position) => ({
      id: c.id,
      type: ChannelType.GuildText,
      guild_id: spec.id,
      name: c.name,
      position,
      permission_overwrites: [],
      parent_id: null,
      topic: null,
      nsfw: false,
      last_message_id: null,
      rate_limit_per_user: 0,
    }));
    this.#members.set(bot.id, { user: bot, roles: [botRoleId], nick: null, joinedAt: this.#joinedAt });
    this.#firstMember = spec.members?.[0] === undefined ? undefined : makeUser(spec.members[0]);
    for (const m of spec.members ?? []) {
      const unknown = (m.roles ?? []).filter((id) => !this.roles.some((r) => r.id === id));
      if (unknown.length > 0) throw new Error(`guild ${spec.id}: member ${m.id} has unknown roles ${unknown.join(', ')}`);
      this.#members.set(m.id, { user: makeUser(m), roles: [...(m.roles ?? [])], nick: m.nick ?? null, joinedAt: this.#joinedAt });
    }
  }

  /** The first member the spec listed (not the bot), if any. */
  firstMember(): APIUser | undefined {
    return this.#firstMember;
  }

  get defaultChannelId(): string {
    return this.channels[0].id;
  }

  hasChannel(id: string): boolean {
    return this.channels.some((c) => c.id === id);
  }

  channel(id: string): APITextChannel | undefined {
    return this.channels.find((c) => c.id === id);
  }

  /** The member for a user, adding one with no roles if the user has not been seen. */
  member(user: FakeUserSpec): Member {
    let member = this.#members.get(user.id);
    if (member === undefined) {
      member = { user: makeUser(user), roles: [], nick: null, joinedAt: new Date().toISOString() };
      this.#members.set(user.id, member);
    }
    return member;
  }

  knownMember(userId: string): Member | undefined {
    return this.#members.get(userId);
  }

  permissionsOf(userId: string): bigint {
    if (userId === this.ownerId) return ALL_PERMISSIONS;
    const member = this.#members.get(userId);
    let permissions = BigInt(this.roles[0].permissions);
    for (const id of member?.roles ?? []) {
      const r = this.roles.find((x) => x.id === id);
      if (r !== undefined) permissions |= BigInt(r.permissions);
    }
    return (permissions & PermissionFlagsBits.Administrator) !== 0n ? ALL_PERMISSIONS : permissions;
  }

  /** A member as the gateway and REST show one (no `permissions`: that is for interactions). */
  memberPayload(userId: string): APIGuildMember {
    const member = this.#members.get(userId);
    if (member === undefined) throw new Error(`guild ${this.id} has no member ${userId}`);
    return {
      user: member.user,
      nick: member.nick,
      avatar: null,
      banner: null,
      roles: [...member.roles],
      joined_at: member.joinedAt,
      premium_since: null,
      deaf: false,
      mute: false,
      flags: 0 as GuildMemberFlags,
      pending: false,
      communication_disabled_until: null,
    };
  }

  /**
   * The GUILD_CREATE dispatch for this guild: a full guild with `unavailable: false`, its text
   * channels (without `guild_id`, as the gateway sends them) and every member known so far.
   */
  guildCreate(): GatewayGuildCreateDispatchData {
    const members = [...this.#members.keys()].map((id) => this.memberPayload(id));
    return {
      id: this.id,
      name: this.name,
      icon: null,
      splash: null,
      discovery_splash: null,
      banner: null,
      description: null,
      owner_id: this.ownerId,
      afk_channel_id: null,
      afk_timeout: 300,
      verification_level: GuildVerificationLevel.Low,
      default_message_notifications: GuildDefaultMessageNotifications.OnlyMentions,
      explicit_content_filter: GuildExplicitContentFilter.AllMembers,
      roles: this.roles.map((r) => ({ ...r })),
      emojis: [],
      stickers: [],
      features: [],
      mfa_level: GuildMFALevel.None,
      application_id: null,
      system_channel_id: this.defaultChannelId,
      system_channel_flags: 0 as GuildSystemChannelFlags,
      rules_channel_id: null,
      public_updates_channel_id: null,
      safety_alerts_channel_id: null,
      vanity_url_code: null,
      premium_tier: GuildPremiumTier.None,
      premium_subscription_count: 0,
      premium_progress_bar_enabled: false,
      preferred_locale: 'en-US' as GatewayGuildCreateDispatchData['preferred_locale'],
      nsfw_level: GuildNSFWLevel.Default,
      max_members: 500_000,
      max_video_channel_users: 25,
      max_stage_video_channel_users: 50,
      hub_type: null,
      incidents_data: null,
      // Fields only GUILD_CREATE has:
      joined_at: this.#joinedAt,
      large: false,
      unavailable: false,
      member_count: members.length,
      voice_states: [],
      members,
      channels: this.channels.map((channel) => omit(channel, ['guild_id'])),
      threads: [],
      presences: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
    };
  }
}

function role(id: string, name: string, permissions: bigint, position: number): APIRole {
  return {
    id,
    name,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position,
    permissions: permissions.toString(),
    managed: false,
    mentionable: false,
    flags: 0 as RoleFlags,
  };
}
