"""Tests for ambush"""
